/**
 * Test support for the CLI end-to-end tests: runs the compiled CLI as a child process and reads
 * its output. Paths are resolved from this compiled file, so the tests work from `dist/` and from
 * any `tsc --outDir` build folder.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** `<build>/src/cli/run-cli.js`, beside `<build>/test/e2e/`. */
export const cliEntry = path.resolve(here, '../../src/cli/run-cli.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `assay <args>` to completion. Asynchronous on purpose: a loopback server in this process
 * must keep answering while the child runs. `env` is added to this process's environment.
 */
export function assay(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [cliEntry, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The lines of a text, without the empty one after a final newline. */
export const linesOf = (text: string): string[] => text.split('\n').filter((line, i, all) => !(line === '' && i === all.length - 1));

/** `sha256` of a file's bytes. */
export const fileSha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every file under `root/folder`, as `folder/…` paths with `/`, sorted. */
export function listFiles(root: string, folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  walk(folder);
  return out.sort();
}
