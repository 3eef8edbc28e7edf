// One assay CLI command in a fresh process, measured from outside: wall time from spawn to exit,
// and (through cli-usage-preload.ts) the process's CPU time and peak RSS.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { perfDir } from './child-process.js';

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
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-usage-'));
  const usageFile = join(dir, 'usage.json');
  try {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(perfDir, 'cli-usage-preload.js')).href, join(tree, 'bin', 'assay.js'), ...args], {
      cwd,
      env: { ...process.env, ...env, ASSAY_BENCH_USAGE_FILE: usageFile, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const [code] = (await once(child, 'close')) as [number | null];
    const wallMs = performance.now() - started;
    let usage = { cpuMs: Number.NaN, maxRssMB: Number.NaN };
    try {
      usage = JSON.parse(readFileSync(usageFile, 'utf8')) as typeof usage;
    } catch {
      // The process died before its exit handler ran: its figures are unknown, not zero.
    }
    return { wallMs, ...usage, exitCode: code, stderrTail: stderr.trim().split('\n').slice(-3).join('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
