import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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
