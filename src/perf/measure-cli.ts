// One assay CLI command in a fresh process, measured from outside: wall time from spawn to exit,
// and (through cli-usage-preload.ts) the process's CPU time and peak RSS.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { lastLines, withProcessUsage } from './child-process.js';

export interface CliMeasurement {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly maxRssMB: number;
  readonly exitCode: number | null;
  /** The last lines of stderr, to say why a command failed. */
  readonly stderrTail: string;
}

/** Runs `node <tree>/bin/assay.js <args>` with `env` added, in `cwd`, and measures it. */
export async function measureCli(tree: string, args: readonly string[], env: Record<string, string>, cwd: string): Promise<CliMeasurement> {
  const { value, usage } = await withProcessUsage(async (nodeArgs, usageEnv) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeArgs, join(tree, 'bin', 'assay.js'), ...args], {
      cwd,
      env: { ...process.env, ...env, ...usageEnv, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const [code] = (await once(child, 'close')) as [number | null];
    return { wallMs: performance.now() - started, code, stderr };
  });
  return { wallMs: value.wallMs, ...usage, exitCode: value.code, stderrTail: lastLines(value.stderr) };
}
