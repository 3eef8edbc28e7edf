import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The compiled CLI entry, found next to this compiled module (works from dist/ and any build folder). */
const mainModule = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../cli/main.js')).href;

/** Starts `assay <args>` as a real child process (so tests can kill -9 it). */
export function spawnAssay(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const script = `const { main } = await import(${JSON.stringify(mainModule)}); process.exitCode = await main(process.argv);`;
  return spawn(process.execPath, ['--input-type=module', '-e', script, '--', 'assay', ...args], {
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
