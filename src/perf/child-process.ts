import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The benchmark scripts' folder (compiled), where each measuring script a bench runs lives. */
export const perfDir = dirname(fileURLToPath(import.meta.url));

/** The first line a child prints on stdout (a server's URL, a measured run's JSON). */
export async function firstLine(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return line;
}

/**
 * Runs one measuring script of this folder in a fresh process (so its CPU and peak RSS are its own)
 * and returns its JSON line. `v8Flags`: given to that node, as `MEMORY_FLAGS` for a script that runs
 * assay's engine as the CLI would (the floor's scripts run without them: undici as it comes).
 */
export async function measureInChild<T>(script: string, args: readonly string[], v8Flags: readonly string[] = []): Promise<T> {
  const child = spawn(process.execPath, [...v8Flags, join(perfDir, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const result = JSON.parse(await firstLine(child)) as T;
  await once(child, 'close');
  return result;
}

/** The last lines of what a process printed, to say why it failed. */
export const lastLines = (text: string, count = 3): string => text.trim().split('\n').slice(-count).join('\n');

/** The whole process's CPU time and peak RSS (`cli-usage-preload.ts`), unknown (NaN) when it died before its exit handler ran. */
export interface ProcessUsage {
  readonly cpuMs: number;
  readonly maxRssMB: number;
}

/**
 * Runs `spawnAndWait` with the node arguments and environment that make the child write its
 * whole-process CPU time and peak RSS at exit (`cli-usage-preload.ts`), and returns them beside
 * what it returned: start-up and preparation included, as a user's process pays them.
 */
export async function withProcessUsage<T>(spawnAndWait: (nodeArgs: readonly string[], env: Record<string, string>) => Promise<T>): Promise<{ value: T; usage: ProcessUsage }> {
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-usage-'));
  const usageFile = join(dir, 'usage.json');
  try {
    const value = await spawnAndWait(['--import', pathToFileURL(join(perfDir, 'cli-usage-preload.js')).href], { ASSAY_BENCH_USAGE_FILE: usageFile });
    let usage: ProcessUsage = { cpuMs: Number.NaN, maxRssMB: Number.NaN };
    try {
      usage = JSON.parse(readFileSync(usageFile, 'utf8')) as ProcessUsage;
    } catch {
      // The process died before its exit handler ran: its figures are unknown, not zero.
    }
    return { value, usage };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `measureInChild` with the child's whole-process CPU time and peak RSS (`withProcessUsage`), so a floor compares with a CLI run figure for figure. */
export async function measureInChildWithUsage<T>(script: string, args: readonly string[]): Promise<{ result: T; usage: ProcessUsage }> {
  const { value, usage } = await withProcessUsage(async (nodeArgs, env) => {
    const child = spawn(process.execPath, [...nodeArgs, join(perfDir, script), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    const result = JSON.parse(await firstLine(child)) as T;
    await once(child, 'close');
    return result;
  });
  return { result: value, usage };
}
