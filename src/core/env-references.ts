import { InputError } from './errors.js';

/**
 * `${VAR}` references in a URL or a header value: the one way a config file or a target names a
 * secret, so the declaration can be committed and shared while keys stay in the environment.
 * Used by config/ (declarations, preflight) and models/ (the http target), hence here.
 *
 * One behaviour everywhere: `${NAME}` with a shell-style name is a reference; any other `${...}`
 * (`${a-b}`, `${1X}`, `${}`) is refused naming the field, since it can only be a typo of one;
 * a `$` not followed by `{` is text.
 */
const ANY_REFERENCE = /\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The first `${...}` of `text` that is not a valid reference (as written), if any. */
export function malformedEnvReference(text: string): string | undefined {
  for (const match of text.matchAll(ANY_REFERENCE)) if (!VARIABLE_NAME.test(match[1] as string)) return match[0];
  return undefined;
}

/** The rule a malformed reference broke, for an error message. */
export function malformedEnvReferenceMessage(reference: string): string {
  return `"${reference}" is not an environment variable reference (\${NAME}: letters, digits and _, not starting with a digit)`;
}

function refuseMalformed(text: string, where: string): void {
  const bad = malformedEnvReference(text);
  if (bad !== undefined) throw new InputError(`${where}: ${malformedEnvReferenceMessage(bad)}`);
}

/**
 * The variables `text` refers to, in order of first use, each once.
 * @throws InputError naming `where` for a malformed `${...}`.
 */
export function envReferences(text: string, where: string): string[] {
  refuseMalformed(text, where);
  return [...new Set([...text.matchAll(ANY_REFERENCE)].map((match) => match[1] as string))];
}

/** Whether `text` holds at least one valid `${VAR}` reference (no error: for texts already checked). */
export function hasEnvReference(text: string): boolean {
  return [...text.matchAll(ANY_REFERENCE)].some((match) => VARIABLE_NAME.test(match[1] as string));
}

/** `text` with each valid `${VAR}` replaced by what `replace` gives for its name; anything else left as it is. */
export function replaceEnvReferences(text: string, replace: (name: string) => string): string {
  return text.replace(ANY_REFERENCE, (whole, name: string) => (VARIABLE_NAME.test(name) ? replace(name) : whole));
}

/**
 * `text` with every `${VAR}` replaced by the variable's value, read at call time (a key rotated
 * between two runs needs no edit of the file).
 * @throws InputError naming `where` (which field of which file) for a malformed `${...}` or for a
 * variable that is unset or empty: a header sent with an empty key could only be refused. The
 * preflight check (config's `checkModelsReady`) finds these before a run starts; this is the last
 * line of defence.
 */
export function resolveEnvReferences(text: string, env: Readonly<Record<string, string | undefined>>, where: string): string {
  refuseMalformed(text, where);
  return replaceEnvReferences(text, (name) => {
    const value = env[name];
    if (value === undefined || value === '') throw new InputError(`${where}: environment variable ${name} is not set`);
    return value;
  });
}
