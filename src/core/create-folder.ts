import { accessSync, constants, lstatSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from './errors.js';
import { fsReason } from './fs-reason.js';

/** Why a folder could not be made: the path at fault and the reason in the user's words. */
export interface FolderProblem {
  readonly at: string;
  readonly reason: string;
}

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * `mkdir -p`, one level at a time. Node 20's `mkdirSync(…, { recursive: true })` never returns
 * when a folder exists but making a child in it fails with ENOENT — anything under `/proc`, or
 * under a symbolic link to nothing: it steps back to the parent (EEXIST, so "made") and forward
 * to the child (ENOENT) forever, at full CPU. So: find the nearest folder that exists, check it
 * is one we may write in, then make each missing level with a plain `mkdir`, whose error is final.
 *
 * Returns the problem (the path and why) when the file system refuses; throws only what is not a
 * file-system error.
 */
export function createFolder(folder: string): FolderProblem | undefined {
  const missing: string[] = [];
  let existing = resolve(folder);
  for (;;) {
    try {
      if (!statSync(existing).isDirectory()) return { at: existing, reason: 'a path component is a file' };
      break;
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') return problem(existing, error);
      const parent = dirname(existing);
      if (parent === existing) return problem(existing, error);
      missing.unshift(existing);
      existing = parent;
    }
  }
  if (missing.length === 0) return undefined;
  try {
    accessSync(existing, constants.W_OK);
  } catch (error) {
    return problem(missing[0] as string, error);
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      if (codeOf(error) === 'EEXIST' && isFolder(level)) continue; // made by another process meanwhile
      return problem(level, error);
    }
  }
  return undefined;
}

/** Whether `path` is a folder (false when it is missing or cannot be read). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function problem(at: string, error: unknown): FolderProblem {
  const code = codeOf(error);
  if (code === 'EEXIST' && isDanglingLink(at)) return { at, reason: 'a symbolic link to nothing' };
  // The parent exists (it was found, or just made): ENOENT means it does not take new folders.
  if (code === 'ENOENT' && isFolder(dirname(at))) return { at, reason: `${dirname(at)} does not take new folders (a virtual file system such as /proc, or a symbolic link to nothing)` };
  const reason = fsReason(error);
  if (reason === undefined) throw error;
  return { at, reason };
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && !isFolder(path);
  } catch {
    return false;
  }
}

/**
 * {@link createFolder} for a folder assay needs to go on (a data dir, a download's folder, the
 * model cache): a refusal is an InputError naming what the folder is for, the path and the reason.
 */
export function requireFolder(folder: string, purpose: string): void {
  const refused = createFolder(folder);
  if (refused) throw new InputError(`cannot create the ${purpose} ${folder}: ${refused.at}: ${refused.reason}`, { file: folder });
}
