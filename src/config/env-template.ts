import { InputError } from '../core/index.js';

/**
 * `${VAR}` references in a URL or a header value: the one way a config file names a secret, so
 * the file can be committed and shared while keys stay in the environment. Only `${NAME}` with a
 * shell-style name is a reference; any other `$` is text.
 */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `text` with each `${VAR}` replaced by what `replace` gives for its name. */
export function replaceEnvReferences(text: string, replace: (name: string) => string): string {
  return text.replace(REFERENCE, (_reference, name: string) => replace(name));
}

/** The variables `text` refers to, in order of first use, each once. */
export function envReferences(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((match) => match[1] as string))];
}

/** Whether `text` holds at least one `${VAR}` reference. */
export function hasEnvReference(text: string): boolean {
  return envReferences(text).length > 0;
}

/**
 * `text` with every `${VAR}` replaced by the variable's value, read at call time (a key rotated
 * between two runs needs no edit of the file).
 * @throws InputError naming the first variable that is unset or empty; `where` says which field
 * of which file asked for it. The preflight check (`checkModelsReady`) finds these before a run
 * starts; this is the last line of defence.
 */
export function resolveEnvTemplate(text: string, env: Readonly<Record<string, string | undefined>>, where = 'a config file value'): string {
  return replaceEnvReferences(text, (name) => {
    const value = env[name];
    if (value === undefined || value === '') throw new InputError(`${where}: environment variable ${name} is not set`);
    return value;
  });
}
