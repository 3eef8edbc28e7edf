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
 * (relative to `cwd`), a bare name is looked up in `PATH`, an empty entry of which is `cwd` (POSIX's
 * reading, which execvp follows). Undefined when there is no executable file there, so a missing
 * `python3` is said before a run (config/'s preflight) and when the target is built, not once per
 * sample; one function for both, so the check cannot pass where the target then fails.
 */
export function findCommand(command: string, cwd: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutableFile(file) ? file : undefined;
  }
  // PATH unset: no folder to look in (not the working folder).
  for (const dir of env.PATH === undefined ? [] : env.PATH.split(delimiter)) {
    const file = join(dir === '' ? cwd : isAbsolute(dir) ? dir : resolve(cwd, dir), command);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
