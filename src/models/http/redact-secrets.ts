/** Text shorter than this is not treated as a secret: local servers take dummy keys like "EMPTY" or "ollama", and scrubbing such common words from model output would corrupt results. */
export const MIN_SECRET_LENGTH = 8;

export const REDACTED = '[REDACTED]';

/**
 * Builds a function that replaces every occurrence of the given secrets (as written, and as they
 * look inside a JSON string) with `[REDACTED]`. The replacement contains no JSON-special
 * characters, so a redacted JSON text still parses. Costs one `includes` per secret when nothing
 * matches, which is the normal case.
 */
export function createRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    needles.add(secret);
    needles.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const needle of ordered) {
      if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    }
    return out;
  };
}
