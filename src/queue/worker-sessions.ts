import { InputError } from '../core/index.js';

/** How long a worker keeps a run's session once none of the run's units is in flight (`WorkerSessions`). */
export const SESSION_IDLE_MS = 10_000;

/** `SESSION_IDLE_MS`, or `ASSAY_WORKER_IDLE_MS` when set (tests set it short to see sessions closed). */
export function sessionIdleMsFromEnv(): number {
  const text = process.env['ASSAY_WORKER_IDLE_MS'];
  if (text === undefined || text === '') return SESSION_IDLE_MS;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms < 1) throw new InputError(`ASSAY_WORKER_IDLE_MS must be a positive whole number of milliseconds, got "${text}"`);
  return ms;
}

/** A session in use by a unit: released when the unit is done with it (`WorkerSessions.acquire`). */
export interface HeldSession<S> {
  readonly session: Promise<S>;
  /** Once per acquire: the unit no longer uses the session. */
  release(): void;
}

interface Entry<S> {
  readonly session: Promise<S>;
  inUse: number;
  idle: NodeJS.Timeout | undefined;
}

/**
 * The run sessions a queue worker has built (`openRunForWork`), by session key (a run, or a run as
 * a resume queued it again), each closed once none of its units has been in flight for `idleMs`.
 * A worker serves run after run for as long as it lives, and a session holds its run's prepared
 * task, its models with their connections, its samples' ids and hints: kept until the worker
 * stopped, three 10,000-unit MetaTool runs in a row grew a worker's live heap 29 → 35 → 41 MB and
 * its peak RSS 164 → 177 → 193 MB. A unit of a run whose session was closed builds it again.
 */
export class WorkerSessions<S> {
  private readonly entries = new Map<string, Entry<S>>();
  /** Sessions being closed (idle), which `closeAll` waits for too. */
  private readonly closing = new Set<Promise<void>>();

  constructor(
    /** Builds a run's session; a failed build is not kept (the next unit of the run tries again). */
    private readonly open: (runId: string) => Promise<S>,
    /** Closes a session no unit uses any more. */
    private readonly close: (session: S, key: string) => Promise<void>,
    private readonly idleMs: number = SESSION_IDLE_MS,
  ) {}

  /** The session of `key` (built if this worker has none), in use until the returned `release`. */
  acquire(key: string, runId: string): HeldSession<S> {
    let entry = this.entries.get(key);
    if (!entry) {
      const built: Entry<S> = { session: this.open(runId), inUse: 0, idle: undefined };
      built.session.catch(() => {
        if (this.entries.get(key) === built) this.entries.delete(key);
      });
      this.entries.set(key, built);
      entry = built;
    }
    clearTimeout(entry.idle);
    entry.idle = undefined;
    entry.inUse++;
    const held = entry;
    let released = false;
    return {
      session: held.session,
      release: () => {
        if (released) return;
        released = true;
        if (--held.inUse === 0 && this.entries.get(key) === held) this.closeWhenIdle(key, held);
      },
    };
  }

  /** How many sessions the worker holds (built or being built). */
  get size(): number {
    return this.entries.size;
  }

  /** Closes every session, waiting for those in use to be released first is the caller's: the worker has stopped taking units. */
  async closeAll(): Promise<void> {
    const entries = [...this.entries];
    this.entries.clear();
    for (const [key, entry] of entries) {
      clearTimeout(entry.idle);
      await this.closeEntry(key, entry);
    }
    await Promise.all(this.closing);
  }

  private closeWhenIdle(key: string, entry: Entry<S>): void {
    entry.idle = setTimeout(() => {
      if (this.entries.get(key) !== entry || entry.inUse > 0) return;
      this.entries.delete(key);
      const closed = this.closeEntry(key, entry);
      this.closing.add(closed);
      void closed.then(() => this.closing.delete(closed));
    }, this.idleMs);
    // Never the reason the worker's process stays alive.
    entry.idle.unref();
  }

  private async closeEntry(key: string, entry: Entry<S>): Promise<void> {
    await entry.session.then((session) => this.close(session, key)).catch(() => undefined);
  }
}
