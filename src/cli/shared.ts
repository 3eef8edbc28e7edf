import { Option } from 'commander';
import { renderSummary } from '../report/console.js';
import type { RunSummary } from '../runner/summary.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';

/** Exit codes: 0 ok, 2 bad input, 1 unexpected failure, 3 finished with sample errors, 130 interrupted. */
export const EXIT = { ok: 0, unexpected: 1, badInput: 2, sampleErrors: 3, interrupted: 130 } as const;

export const DEFAULT_DB = '.assay/assay.db';

export const dbOption = (): Option => new Option('--db <path>', 'SQLite database holding the runs').default(DEFAULT_DB).env('ASSAY_DB');
/** For commands that read no run: accepted so that every command takes --db (scripts pass it everywhere). */
export const unusedDbOption = (): Option => new Option('--db <path>', 'accepted for uniformity; this command reads no database').hideHelp();
export const jsonOption = (): Option => new Option('--json', 'print one JSON object on stdout instead of text');
export const dataDirOption = (what = 'folder holding the datasets (default: $ASSAY_DATA_DIR, else the user cache)'): Option => new Option('--data-dir <dir>', what);

/** Opens the store, runs `fn`, and always closes it (so the WAL is checkpointed on exit). */
export async function withStore<T>(path: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openSqliteStore(path);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

export function printSummary(summary: RunSummary, json: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(summary)}\n` : `${renderSummary(summary)}\n`);
}

export function exitCodeFor(summary: RunSummary): number {
  if (summary.status === 'interrupted') return EXIT.interrupted;
  return Object.values(summary.models).some((m) => m.counts.errors > 0) ? EXIT.sampleErrors : EXIT.ok;
}

/** SIGINT/SIGTERM stop the run cleanly: in-flight calls are abandoned, everything finished is kept. */
export function interruptSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const stop = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    process.stderr.write('\nstopping: finishing writes (press Ctrl-C again to quit at once)…\n');
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { signal: controller.signal, dispose: () => (process.off('SIGINT', stop), process.off('SIGTERM', stop)) };
}
