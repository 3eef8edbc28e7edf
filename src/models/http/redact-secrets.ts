/** Text shorter than this is not treated as a secret: local servers take dummy keys like "EMPTY" or "ollama", and scrubbing such common words from model output would corrupt results. */
export const MIN_SECRET_LENGTH = 8;

export const REDACTED = '[REDACTED]';

/** Either case of a hex digit, so `\u002D` matches as `\u002d` does. */
const hexDigit = (digit: string): string => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit);

/**
 * One UTF-16 unit of a secret as JSON text may write it, at any depth of JSON in JSON (a tool
 * call's `arguments` is a JSON string inside the body): as itself, after backslashes (`\/`,
 * `\\/`, `\"`), or as a `\uXXXX` escape (either case) after one or more backslashes.
 */
function unitPattern(unit: number): string {
  const literal = String.fromCharCode(unit).replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  const hex = unit.toString(16).padStart(4, '0').split('').map(hexDigit).join('');
  return `(?:\\\\*${literal}|\\\\+u${hex})`;
}

/**
 * Builds a function that replaces every occurrence of the given secrets with `[REDACTED]`: as
 * written, and however JSON text escapes them — `\/`, `\u002d`-style escapes for any of their
 * characters, mixed, at any depth of JSON in JSON. The replacement contains no JSON-special
 * characters, so a redacted JSON text still parses. One regular expression for all secrets,
 * longest first so a secret that contains another is replaced whole.
 */
export function createRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const kept = new Set<string>();
  for (const secret of secrets) if (secret && secret.length >= MIN_SECRET_LENGTH) kept.add(secret);
  if (kept.size === 0) return (text) => text;
  const ordered = [...kept].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(ordered.map((secret) => Array.from({ length: secret.length }, (_, i) => unitPattern(secret.charCodeAt(i))).join('')).join('|'), 'g');
  return (text) => text.replace(pattern, REDACTED);
}

/**
 * Replaces the secrets wherever they occur in any string of a JSON value (object keys included),
 * as the value holds them: decoded, whatever escapes the wire used. `redact` (a `createRedactor`)
 * is run over the value's JSON text, where every decoded string is written with the canonical
 * escapes it also looks for, so one pass finds them all; the value is rebuilt only when something
 * was replaced. Values that are not JSON data (undefined, functions) are returned as they are.
 */
export function redactJsonValue<T>(value: T, redact: (text: string) => string): T {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return value;
  const clean = redact(text);
  return clean === text ? value : (JSON.parse(clean) as T);
}

/**
 * The secrets every model of one run sends (its keys, secret header values), gathered as the
 * models are built: a model's outputs and errors are redacted of all of them, not only its own,
 * so a judge echoing the key of the model under test cannot store it either.
 */
export class RunSecrets {
  private readonly known = new Set<string>();
  private redactor: (text: string) => string = (text) => text;

  add(secrets: readonly (string | undefined)[] | undefined): void {
    let added = false;
    for (const secret of secrets ?? []) {
      if (secret === undefined) continue;
      // Percent-encoded too: a key in a URL's path or query is written so in an echoed address.
      for (const form of new Set([secret, encodeURIComponent(secret)])) {
        if (this.known.has(form)) continue;
        this.known.add(form);
        added = true;
      }
    }
    if (added) this.redactor = createRedactor([...this.known]);
  }

  /** Whether a text is one of the secrets. */
  readonly has = (text: string): boolean => this.known.has(text);

  /** The text with every secret replaced (as written or JSON-escaped). */
  readonly redact = (text: string): string => this.redactor(text);

  /** The JSON value with every secret replaced in its decoded strings (`redactJsonValue`). */
  redactValue<T>(value: T): T {
    return this.known.size === 0 ? value : redactJsonValue(value, this.redactor);
  }
}
