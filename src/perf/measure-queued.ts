// A run on the queue path, measured from outside as a user runs it: one `assay worker` of the tree,
// started first and measured until SIGTERM stops it, and the submitting `assay run … --queue`,
// measured as any CLI command (`measure-cli.ts`), on a PostgreSQL schema and a queue of their own.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { lastLines, withProcessUsage } from './child-process.js';
import { measureCli, type CliMeasurement } from './measure-cli.js';

/** A queued run: the submitter's wall and exit, the CPU of both processes, the worker's peak RSS and the submitter's apart. */
export interface QueuedMeasurement extends CliMeasurement {
  readonly submitterRssMB: number;
}

/** How one queued run is made: the submitter's and the worker's arguments, given the store's URL and the queue's name. */
export interface QueuedCommands {
  submit(store: string, queue: string): string[];
  worker(store: string, queue: string): string[];
}

/** What `assay worker` prints on stderr once it takes units. */
const READY = /^worker \S+ on queue /;

/**
 * Runs one queued run of `tree` on `store` (an empty PostgreSQL schema) and `queue` (a name no
 * other run uses), and measures it. A worker that ends before it is ready (a tree without the
 * command) is the measurement's failure: its exit code and the last lines it printed.
 */
export async function measureQueued(tree: string, commands: QueuedCommands, store: string, queue: string, env: Record<string, string>, cwd: string): Promise<QueuedMeasurement> {
  const assay = join(tree, 'bin', 'assay.js');
  let submitted: CliMeasurement | undefined;
  const { value: worker, usage } = await withProcessUsage(async (nodeArgs, usageEnv) => {
    const child = spawn(process.execPath, [...nodeArgs, assay, ...commands.worker(store, queue)], { cwd, env: { ...process.env, ...env, ...usageEnv, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    const closed = once(child, 'close') as Promise<[number | null]>;
    let stderr = '';
    const ready = await new Promise<boolean>((resolve) => {
      createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
        stderr = `${stderr}${line}\n`.slice(-4000);
        if (READY.test(line)) resolve(true);
      });
      void closed.then(() => resolve(false));
    });
    if (ready) {
      submitted = await measureCli(tree, commands.submit(store, queue), env, cwd);
      child.kill('SIGTERM');
    }
    const [code] = await closed;
    return { code, stderr, ready };
  });
  if (!worker.ready || submitted === undefined) {
    return { wallMs: Number.NaN, cpuMs: Number.NaN, maxRssMB: Number.NaN, submitterRssMB: Number.NaN, exitCode: worker.code ?? 1, stderrTail: lastLines(worker.stderr) };
  }
  // The worker stopped on SIGTERM exits 0; anything else says the run did not go as measured.
  const exitCode = submitted.exitCode !== 0 ? submitted.exitCode : worker.code;
  return {
    wallMs: submitted.wallMs,
    cpuMs: submitted.cpuMs + usage.cpuMs,
    maxRssMB: usage.maxRssMB,
    submitterRssMB: submitted.maxRssMB,
    exitCode,
    stderrTail: submitted.exitCode !== 0 ? submitted.stderrTail : lastLines(worker.stderr),
  };
}
