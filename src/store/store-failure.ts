/**
 * A store that cannot take a write because of where it lives — its disk full, its file or
 * database read-only — is the environment, not a bug: the run stops like an interrupt and the user
 * is told what to fix, then `assay resume`. Recognised by the backends' own codes, read as data
 * (no backend is imported): SQLite's `SQLITE_FULL` / `SQLITE_READONLY…`, PostgreSQL's `53100`
 * (disk full) / `25006` (read-only transaction), and the file system's `ENOSPC` / `EDQUOT` / `EROFS`.
 */
export interface StoreFailure {
  readonly cause: 'full' | 'read-only';
  /** The code the backend gave, shown to the user as it is. */
  readonly code: string;
}

export function storeFailureOf(error: unknown): StoreFailure | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT') return { cause: 'full', code };
  if (code.startsWith('SQLITE_READONLY') || code === '25006' || code === 'EROFS') return { cause: 'read-only', code };
  return undefined;
}

/** A run stopped because its store could not take a write (see `storeFailureOf`): resumable once the cause is fixed. */
export class StoreFailureError extends Error {
  override readonly name = 'StoreFailureError';
  constructor(
    readonly runId: string,
    readonly failure: StoreFailure,
    /** Whether the run's status could be written as `interrupted`. */
    readonly statusWritten: boolean,
  ) {
    super(`the store is ${failure.cause} (${failure.code})`);
  }

  /** The one line the CLI prints, given where the store is (a URL with its password hidden). */
  describe(location: string): string {
    const fix = this.failure.cause === 'full' ? 'free space' : 'make it writable';
    const unwritten = this.statusWritten ? '' : ' (it could not record the run as interrupted either: the run shows as running until its lease expires, then stale)';
    return `the store ${location} is ${this.failure.cause} (${this.failure.code}): ${fix}, then run "assay resume ${this.runId}"${unwritten}`;
  }
}
