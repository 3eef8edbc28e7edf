import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { InputError } from '../core/errors.js';

export interface ResolvedDataDir {
  /** Absolute path. */
  readonly dir: string;
  readonly source: 'flag' | 'env' | 'cache';
}

export interface ResolveDataDirOptions {
  /** The `--data-dir` flag, if given. */
  readonly flag?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Resolves relative paths; the process's working directory by default. */
  readonly cwd?: string;
}

/**
 * Where benchmark data lives: `--data-dir`, else `ASSAY_DATA_DIR`, else the user cache
 * `${XDG_CACHE_HOME:-~/.cache}/assay/datasets`. A directory the user named must exist (a typo
 * should not silently start a download elsewhere); the cache need not, downloads create it.
 */
export function resolveDataDir(options: ResolveDataDirOptions = {}): ResolvedDataDir {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  if (options.flag !== undefined && options.flag !== '') {
    return { dir: existingDir(path.resolve(cwd, options.flag), '--data-dir'), source: 'flag' };
  }
  const fromEnv = env['ASSAY_DATA_DIR'];
  if (fromEnv !== undefined && fromEnv !== '') {
    return { dir: existingDir(path.resolve(cwd, fromEnv), 'ASSAY_DATA_DIR'), source: 'env' };
  }
  return { dir: path.join(cacheHome(env), 'assay', 'datasets'), source: 'cache' };
}

/** `XDG_CACHE_HOME` when set to an absolute path (the XDG spec says to ignore relative ones), else `~/.cache`. */
function cacheHome(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg && path.isAbsolute(xdg)) return xdg;
  const home = env['HOME'] || homedir();
  return path.join(home, '.cache');
}

function existingDir(dir: string, from: string): string {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new InputError(`data dir ${dir} (from ${from}) does not exist; expected a folder containing the data sets (metatool/, functionchat/)`, { file: dir });
  }
  if (!isDir) throw new InputError(`data dir ${dir} (from ${from}) is not a directory; expected a folder containing the data sets (metatool/, functionchat/)`, { file: dir });
  return dir;
}
