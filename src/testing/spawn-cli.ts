import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled CLI entry, found next to this compiled module (works from dist/ and any build folder). */
export const cliEntry = join(dirname(fileURLToPath(import.meta.url)), '../cli/run-cli.js');

/**
 * Starts `assay <args>` as a real child process (so tests can kill -9 it). Asynchronous on
 * purpose: a loopback server in the test's process must keep answering while the child runs.
 * `env` is added to this process's environment.
 */
export function spawnAssay(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [cliEntry, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `assay <args>` to completion and collects its output. */
export function runAssay(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return collect(spawnAssay(args, env));
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
