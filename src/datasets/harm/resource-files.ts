import path from 'node:path';
import { sha256 } from '../../core/index.js';
import { readTextFile } from '../read-text-file.js';

/** One file of a resource, read: its path for messages and its text. */
export interface ResourceFile {
  /** The path as messages show it: the resource folder joined with the relative path. */
  readonly file: string;
  readonly text: string;
  /** sha256 of the file's bytes (as in the resource's checksums). */
  readonly sha256: string;
}

/**
 * Reads a resource's files by their path relative to its folder and keeps the sha256 of every
 * file read, keyed by that relative path (with `/`), so a run can record exactly what it measured
 * with. A file read twice (two personas sharing a parameter set) is read once.
 */
export class ResourceFiles {
  readonly #checksums = new Map<string, string>();
  readonly #read = new Map<string, Promise<ResourceFile>>();

  constructor(readonly folder: string) {}

  /** @throws InputError naming the file when it cannot be read. */
  read(relative: string): Promise<ResourceFile> {
    const key = relative.split(/[/\\]/).filter((part) => part !== '' && part !== '.').join('/');
    let pending = this.#read.get(key);
    if (!pending) {
      const file = path.join(this.folder, ...key.split('/'));
      pending = readTextFile(file).then(({ bytes, text }) => {
        const sum = sha256(bytes);
        this.#checksums.set(key, sum);
        return { file, text, sha256: sum };
      });
      this.#read.set(key, pending);
    }
    return pending;
  }

  /** sha256 of every file read so far, by relative path, in path order. */
  checksums(): Record<string, string> {
    return Object.fromEntries([...this.#checksums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
