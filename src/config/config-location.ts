import { statSync } from 'node:fs';
import path from 'node:path';
import { fsReason, InputError } from '../core/index.js';

/** The file a working directory declares its models in when no other is named. */
export const DEFAULT_CONFIG_FILE = 'assay.yaml';
/** The environment variable naming a config file, for shells and CI that set it once. */
export const CONFIG_ENV = 'ASSAY_CONFIG';

/** Where a config file was found, and how: messages about it say which option to change. */
export interface ConfigLocation {
  /** The absolute path. */
  readonly path: string;
  /** The file as messages name it: relative to the working directory when inside it. */
  readonly shown: string;
  readonly via: '--config' | typeof CONFIG_ENV | 'working directory';
}

/**
 * The config file of a command: `--config FILE`, else `ASSAY_CONFIG`, else `assay.yaml` in the
 * working directory, else none (a run of `provider:model` ids needs no file). A file named by the
 * flag or the variable must exist: a typo there is refused rather than running without the
 * models the user meant to declare.
 * @throws InputError naming the option and why the file cannot be read.
 */
export function locateConfigFile(cwd: string, flag: string | undefined, env: Readonly<Record<string, string | undefined>>): ConfigLocation | undefined {
  const fromEnv = env[CONFIG_ENV];
  const named: { file: string; via: ConfigLocation['via'] } | undefined =
    flag !== undefined ? { file: flag, via: '--config' } : fromEnv !== undefined && fromEnv !== '' ? { file: fromEnv, via: CONFIG_ENV } : undefined;
  if (named) {
    if (named.file.trim() === '') throw new InputError(`${named.via}: empty; name a config file (e.g. ${DEFAULT_CONFIG_FILE})`);
    const absolute = path.resolve(cwd, named.file);
    const problem = notAFile(absolute);
    if (problem) throw new InputError(`${named.via} ${named.file}: cannot read the config file (${problem})`);
    return { path: absolute, shown: shownPath(cwd, absolute), via: named.via };
  }
  const absolute = path.join(cwd, DEFAULT_CONFIG_FILE);
  const problem = notAFile(absolute);
  if (problem === 'no such file or folder') return undefined;
  // An assay.yaml that is there but unreadable (a folder, no permission) is a mistake to tell, not a file to ignore.
  if (problem) throw new InputError(`${DEFAULT_CONFIG_FILE} in the working directory: cannot read it (${problem})`);
  return { path: absolute, shown: DEFAULT_CONFIG_FILE, via: 'working directory' };
}

function notAFile(file: string): string | undefined {
  try {
    return statSync(file).isFile() ? undefined : 'it is not a file';
  } catch (error) {
    return fsReason(error) ?? String(error);
  }
}

function shownPath(cwd: string, absolute: string): string {
  const relative = path.relative(cwd, absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}
