import { closeSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Option } from 'commander';
import { InputError } from '../core/index.js';
import { resolveDataDir } from '../datasets/data-dir.js';
import type { RunSummary } from '../analysis/summary.js';
import { openStore, type OpenStoreOptions } from '../store/open-store.js';
import { createFolder, fsReason } from '../core/index.js';
import type { Store } from '../store/store.js';
import { StoreFailureError } from '../store/store-failure.js';
import { redactStoreUrl } from '../store/store-url.js';
import { printErr, printOut } from './terminal.js';

/** Exit codes: 0 ok, 2 bad input, 1 unexpected failure, 3 finished with sample errors, 4 a gate failed (a regression; docs/suites.md), 130 interrupted. */
export const EXIT = { ok: 0, unexpected: 1, badInput: 2, sampleErrors: 3, gateFailed: 4, interrupted: 130 } as const;

export const DEFAULT_DB = '.assay/assay.db';

export const dbOption = (): Option =>
  new Option('--db <store>', 'where runs are stored: a SQLite file (path.db or sqlite:path.db) or a PostgreSQL database (postgres://user@host:5432/db)').default(DEFAULT_DB).env('ASSAY_DB');
/** For commands that read no run: accepted so that every command takes --db (scripts pass it everywhere). */
export const unusedDbOption = (): Option => new Option('--db <store>', 'accepted for uniformity; this command reads no database').hideHelp();
export const jsonOption = (): Option => new Option('--json', 'print one JSON object on stdout instead of text');
export const dataDirOption = (what = 'folder holding the datasets (default: $ASSAY_DATA_DIR, else the user cache)'): Option => new Option('--data-dir <dir>', what);

/**
 * Opens the store `--db` names (a bad location or an unreachable server: one line, exit 2), runs
 * `fn`, and always closes it (SQLite checkpoints its WAL, PostgreSQL ends its connections). A
 * SQLite file that does not exist is refused, naming the path, unless `options` say to create it
 * (`assay run`): a mistyped `--db` would otherwise make a new empty store that has "no runs yet".
 */
export async function withStore<T>(location: string, fn: (store: Store) => Promise<T>, options: OpenStoreOptions = { missing: 'existing' }): Promise<T> {
  const store = await openStore(location, options);
  let result: T;
  try {
    result = await fn(store);
  } catch (error) {
    // What went wrong is `error`: a store that cannot close (full, say) must not hide it.
    await store.close().catch(() => undefined);
    throw error;
  }
  await store.close();
  return result;
}

/**
 * A run or resume whose store refused a write for want of space or write access: one line naming
 * the store and what to fix, exit 130 (the run is interrupted and resumable). Other errors go on.
 */
export async function storeFailureExit(location: string, session: () => Promise<number>): Promise<number> {
  try {
    return await session();
  } catch (error) {
    if (!(error instanceof StoreFailureError)) throw error;
    printErr(`assay: ${error.describe(redactStoreUrl(location))}\n`);
    return EXIT.interrupted;
  }
}

/** Prints a run's summary: JSON, or the console report (whose modules only this loads: a `--json` run never renders it). */
export async function printSummary(summary: RunSummary, json: boolean): Promise<void> {
  if (json) {
    printOut(`${JSON.stringify(summary)}\n`);
    return;
  }
  const [{ renderSummary }, { runMetricDeclarationsOf }] = await Promise.all([import('../report/console.js'), import('../report/metric-format.js')]);
  printOut(`${renderSummary(summary, runMetricDeclarationsOf(summary.task))}\n`);
}

export function exitCodeFor(summary: RunSummary): number {
  if (summary.status === 'interrupted') return EXIT.interrupted;
  return Object.values(summary.models).some((m) => m.counts.errors > 0) ? EXIT.sampleErrors : EXIT.ok;
}

/**
 * SIGINT/SIGTERM stop the run in steps. The first stops starting samples but lets the calls in
 * flight finish and be stored (`stop`): they are paid for, and a resume would pay for them again.
 * The second aborts those calls (`signal`); everything finished is kept either way. A third quits
 * at once. With no model calls to finish (`nothingInFlight`: a command that only downloads), the
 * first aborts both and the second quits.
 */
export function interruptSignal(nothingInFlight = false): { stop: AbortSignal; signal: AbortSignal; dispose: () => void } {
  const stopping = new AbortController();
  const aborting = new AbortController();
  const onSignal = (): void => {
    if (aborting.signal.aborted) process.exit(EXIT.interrupted);
    if (nothingInFlight) {
      printErr('\nstopping (press Ctrl-C again to quit at once)…\n');
      stopping.abort();
      aborting.abort();
    } else if (stopping.signal.aborted) {
      printErr('\naborting the calls in flight (Ctrl-C again quits at once)…\n');
      aborting.abort();
    } else {
      printErr('\nstopping: no new samples start; the calls in flight finish and are stored (Ctrl-C again aborts them)…\n');
      stopping.abort();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { stop: stopping.signal, signal: aborting.signal, dispose: () => (process.off('SIGINT', onSignal), process.off('SIGTERM', onSignal)) };
}

/**
 * The run lease's time to live from `ASSAY_LEASE_TTL_MS` (tests use a short one so a killed
 * holder's lease expires quickly); undefined for the default.
 */
export function leaseFromEnv(): { ttlMs: number } | undefined {
  const text = process.env['ASSAY_LEASE_TTL_MS'];
  if (text === undefined || text === '') return undefined;
  const ttlMs = Number(text);
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) throw new InputError(`ASSAY_LEASE_TTL_MS must be a positive whole number of milliseconds, got "${text}"`);
  return { ttlMs };
}

/**
 * How long a wait before a retry is before it is told (`ASSAY_RETRY_NOTICE_MS`; tests use a short
 * one so that they need not wait 5 s); empty for the default.
 */
export function retryNoticeFromEnv(): { retryNoticeMs?: number } {
  const text = process.env['ASSAY_RETRY_NOTICE_MS'];
  if (text === undefined || text === '') return {};
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms < 0) throw new InputError(`ASSAY_RETRY_NOTICE_MS must be a whole number of milliseconds, got "${text}"`);
  return { retryNoticeMs: ms };
}

/**
 * `--out`: a path the file system refuses (a file in the way, no permission, a folder under /proc,
 * where Node's recursive mkdir would spin forever) is the user's to fix, said in one line.
 */
export function writeOutFile(file: string, text: string): void {
  outFolder(file);
  try {
    writeFileSync(file, text);
  } catch (error) {
    outFileFailed(file, error);
  }
}

/**
 * `--out FILE` written in parts (an export's pages): into a file beside it, renamed over FILE by
 * `commit` once every part is written, so an export that fails or is killed midway leaves FILE as
 * it was (one that fails, no part file either: `abort`). Its folder is made and every failure (a
 * folder in the way, no room, no permission) said as for {@link writeOutFile}. A Ctrl-C or a
 * SIGTERM while the parts are written removes the part file, then ends the process as the signal
 * would have (only a kill -9 leaves it behind).
 */
export function openOutFile(file: string): { write: (text: string) => void; commit: () => void; abort: () => void } {
  const folder = outFolder(file);
  // Said before any part is written, as writing it whole said it.
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) outFileFailed(file, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
  const part = join(folder, `.${basename(file)}.${process.pid}.part`);
  let fd: number | undefined;
  const closeFile = (): void => {
    if (fd === undefined) return;
    const open = fd;
    fd = undefined;
    closeSync(open);
  };
  // Watched before the part file exists: a signal cannot come between its making and its watch.
  const unwatch = removedOnSignal(part, closeFile);
  try {
    fd = openSync(part, 'w');
  } catch (error) {
    unwatch();
    outFileFailed(file, error);
  }
  return {
    write: (text) => {
      try {
        // On a descriptor: written whole, after the parts before it.
        writeFileSync(fd as number, text);
      } catch (error) {
        outFileFailed(file, error);
      }
    },
    commit: () => {
      unwatch();
      try {
        closeFile();
        renameSync(part, file);
      } catch (error) {
        rmSync(part, { force: true });
        outFileFailed(file, error);
      }
    },
    abort: () => {
      unwatch();
      try {
        closeFile();
      } finally {
        rmSync(part, { force: true });
      }
    },
  };
}

/** The signals that end a command which installs no handler of its own (an export), as a user sends them. */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Until the returned function is called, SIGINT, SIGTERM or SIGHUP first closes and removes
 * `file`, then ends the process by the same signal (its listener gone, the signal is sent again:
 * the exit status a shell or CI reads stays the signal's).
 */
function removedOnSignal(file: string, close: () => void): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    unwatch();
    try {
      close();
    } finally {
      rmSync(file, { force: true });
    }
    process.kill(process.pid, signal);
  };
  const unwatch = (): void => {
    for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of ENDING_SIGNALS) process.once(signal, onSignal);
  return unwatch;
}

/** Makes the folder `--out FILE` goes in (an `InputError` naming FILE when it cannot be); returns it. */
function outFolder(file: string): string {
  const folder = dirname(resolve(file));
  const problem = createFolder(folder);
  if (problem) throw new InputError(`cannot write --out ${file}: ${problem.at === folder ? '' : `${problem.at}: `}${problem.reason}`, { file });
  return folder;
}

/** A file-system failure writing `--out FILE`, said as the user's to fix; anything else rethrown. */
function outFileFailed(file: string, error: unknown): never {
  const reason = fsReason(error);
  if (reason === undefined) throw error;
  throw new InputError(`cannot write --out ${file}: ${reason}`, { file });
}

/** `--data-dir` checked to exist (as for `run`), or undefined to use the run's recorded one. */
export const checkedDataDir = (flag: string | undefined): string | undefined => (flag ? resolveDataDir({ flag }).dir : undefined);
