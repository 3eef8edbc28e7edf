import { InputError } from '../../core/index.js';

/** `${NAME}`: a reference to an environment variable in a header value. */
const REFERENCE = /\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The environment variables a text refers to as `${NAME}`, in order, each once. */
export function envReferences(text: string, where: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const name = match[1] as string;
    if (!VARIABLE_NAME.test(name)) throw new InputError(`${where}: "\${${name}}" is not an environment variable name (letters, digits and _, not starting with a digit)`);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The text with every `${NAME}` replaced by the variable's value. A variable that is not set (or
 * is empty) is an `InputError` naming it: a header sent with an empty key could only be refused.
 */
export function resolveEnvReferences(text: string, env: Readonly<Record<string, string | undefined>>, where: string): string {
  return text.replace(REFERENCE, (_whole, name: string) => {
    const value = env[name];
    if (value === undefined || value === '') throw new InputError(`${where} needs the environment variable ${name}, which is not set`);
    return value;
  });
}
