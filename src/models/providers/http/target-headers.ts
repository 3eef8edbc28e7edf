import { envReferences, resolveEnvReferences } from '../../../core/index.js';

/** Header names whose whole values are secrets (as the OpenAI provider's extra headers). */
const SECRET_HEADER = /auth|key|token|secret|cookie/i;

export interface TargetHeaders {
  /**
   * The headers of one call, `${VAR}` read from the environment now; the same object as long as
   * the values have not changed (the common case costs a few string compares).
   * @throws InputError naming a variable that is no longer set.
   */
  current(): Readonly<Record<string, string>>;
  /** Every secret sent so far: variable values and the values of secret-named headers (also without `Bearer `). */
  readonly secrets: readonly string[];
}

/**
 * An `http` target's headers: JSON content type and accept by default, then the declared ones
 * (names lower-cased so that a declared `Content-Type` replaces ours). Values may refer to
 * environment variables as `${VAR}`, resolved when the target is built (a missing one is an
 * `InputError` before anything is called) and again at each call, so a token refreshed in the
 * environment is sent from the next call on. `onSecrets` is told of secret values as they appear.
 */
export function targetHeaders(
  declared: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  where: (header: string) => string,
  onSecrets: (secrets: readonly string[]) => void,
): TargetHeaders {
  const entries = Object.entries(declared).map(([name, template]) => ({ name: name.toLowerCase(), template, references: envReferences(template, where(name)), where: where(name) }));
  const dynamic = entries.filter((entry) => entry.references.length > 0);
  const secrets: string[] = [];
  const known = new Set<string>();
  const addSecrets = (name: string, value: string, variables: readonly string[]): void => {
    const found = variables.map((variable) => env[variable] ?? '');
    if (SECRET_HEADER.test(name)) found.push(value, value.replace(/^bearer\s+/i, ''));
    const fresh: string[] = [];
    for (const secret of found) {
      if (secret === '' || known.has(secret)) continue;
      known.add(secret);
      fresh.push(secret);
    }
    if (fresh.length === 0) return;
    secrets.push(...fresh);
    onSecrets(fresh);
  };

  const build = (): Record<string, string> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    for (const entry of entries) {
      const value = entry.references.length > 0 ? resolveEnvReferences(entry.template, env, entry.where) : entry.template;
      headers[entry.name] = value;
      addSecrets(entry.name, value, entry.references);
    }
    return headers;
  };

  let headers = build();
  let values = dynamic.map((entry) => entry.references.map((variable) => env[variable]));
  return {
    secrets,
    current() {
      if (dynamic.length === 0) return headers;
      const now = dynamic.map((entry) => entry.references.map((variable) => env[variable]));
      if (now.every((row, i) => row.every((value, j) => value === values[i]?.[j]))) return headers;
      headers = build();
      values = now;
      return headers;
    },
  };
}
