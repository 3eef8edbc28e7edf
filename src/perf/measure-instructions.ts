// A node script under valgrind's callgrind (an assay CLI command, a floor of `floor-once.ts`): the
// instructions its process executed, every thread. Unlike CPU time, the count hardly depends on
// how busy the machine is, so a change of a percent or two in the work a command does shows in a
// pair or two, where CPU time needs many.
// Node runs with V8's --single-threaded: its collections and compilations on the main thread, at
// the same points of every run; with them on V8's own threads, when optimized code arrived moved
// the count (a 1,000-sample MetaTool run: 4.584 and 4.713 billion, 2.8% apart; single-threaded
// 4.492 and 4.482, 0.2%; docs/benchmarks.md). The process runs ~30–50× slower: a figure for the
// work done, not for its speed.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { lastLines } from './child-process.js';

export interface InstructionCount {
  /** Instructions executed (callgrind's `Ir`), NaN when the command did not run under valgrind. */
  readonly instructions: number;
  readonly exitCode: number | null;
  /** The last lines of stderr, to say why a command failed. */
  readonly stderrTail: string;
}

/** What callgrind prints on stderr at the end: `==pid== Collected : 3714767725`. */
const COLLECTED = /==\d+== Collected : (\d+)/;

/** Runs `valgrind --tool=callgrind node --single-threaded <script> <args>` with `env` added, in `cwd`, and reads its count. */
export async function measureInstructions(script: string, args: readonly string[], env: Record<string, string>, cwd: string): Promise<InstructionCount> {
  const outFile = join(cwd, `callgrind.${process.pid}.${Date.now()}.out`);
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${outFile}`, process.execPath, '--single-threaded', script, ...args], {
    cwd,
    env: { ...process.env, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let collected = Number.NaN;
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-8000);
    const match = COLLECTED.exec(stderr);
    if (match) collected = Number(match[1]);
  });
  // Its exit code, or the error that kept it from starting (no valgrind on the PATH).
  const outcome = await new Promise<number | null | Error>((resolve) => {
    child.once('error', resolve);
    child.once('close', (code: number | null) => resolve(code));
  });
  rmSync(outFile, { force: true });
  if (outcome instanceof Error) return { instructions: Number.NaN, exitCode: null, stderrTail: `valgrind: ${outcome.message} (install it: apt-get install valgrind)` };
  // valgrind's own lines (==pid==) are left out of the tail: the command's last words say why it failed.
  const own = stderr.split('\n').filter((line) => line.trim() !== '' && !/^==\d+==/.test(line));
  return { instructions: collected, exitCode: outcome, stderrTail: lastLines(own.join('\n')) };
}
