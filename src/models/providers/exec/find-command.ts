import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

const isExecutableFile = (file: string): boolean => {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Where a command would be run from, as `spawn` looks for it: a name with a slash is a path
 * (relative to `cwd`), a bare name is looked up in `PATH`. Undefined when there is no executable
 * file there, so a missing `python3` is said when the target is built, not once per sample.
 */
export function findCommand(command: string, cwd: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutableFile(file) ? file : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const file = join(isAbsolute(dir) ? dir : resolve(cwd, dir), command);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
