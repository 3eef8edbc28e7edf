import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

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
