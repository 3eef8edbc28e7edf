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
 * One secret's pattern: each unit as `unitPattern` writes it, and the hex digits of a
 * percent-escape in either case (`%2F` and `%2f` are the same byte: `RunSecrets` adds a key's
 * `encodeURIComponent` form, which writes upper case, and a server or proxy may echo lower case).
 */
function secretPattern(secret: string): string {
  let pattern = '';
  for (let i = 0; i < secret.length; i++) {
    pattern += unitPattern(secret.charCodeAt(i));
    const digits = secret.slice(i + 1, i + 3);
    if (secret[i] === '%' && /^[0-9a-f]{2}$/i.test(digits)) {
      for (const digit of digits) pattern += /[a-f]/i.test(digit) ? `(?:${unitPattern(digit.toLowerCase().charCodeAt(0))}|${unitPattern(digit.toUpperCase().charCodeAt(0))})` : unitPattern(digit.charCodeAt(0));
      i += 2;
    }
  }
  return pattern;
}

/**
 * Builds a function that replaces every occurrence of the given secrets with `[REDACTED]`: as
 * written, and however JSON text escapes them — `\/`, `\u002d`-style escapes for any of their
 * characters, mixed, at any depth of JSON in JSON; a percent-escape in a secret in either hex
 * case. The replacement contains no JSON-special characters, so a redacted JSON text still parses. One regular expression for all secrets,
 * longest first so a secret that contains another is replaced whole.
 */
export function createRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const kept = new Set<string>();
  for (const secret of secrets) if (secret && secret.length >= MIN_SECRET_LENGTH) kept.add(secret);
  if (kept.size === 0) return (text) => text;
  const ordered = [...kept].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(ordered.map(secretPattern).join('|'), 'g');
  // Every escaped form is longer than the secret: a shorter text (most keys and values of a
  // parsed body) cannot hold one and is not scanned.
  const shortest = ordered[ordered.length - 1]!.length;
  return (text) => (text.length < shortest ? text : text.replace(pattern, REDACTED));
}

/**
 * Replaces the secrets wherever they occur in any string of a JSON value (object keys included),
 * as the value holds them: decoded, whatever escapes the wire used. Each string is scanned where
 * it lies with `redact` (a `createRedactor`), which also finds a secret written with JSON escapes
 * inside the string (JSON in JSON, such as a tool call's `arguments`); only the arrays and plain
 * objects on the way to a replaced string are copied, so a clean value — nearly every model
 * output — is returned as it is, with no JSON text written or parsed (that pass was ~2% of the
 * CPU of a MetaTool run, and garbage for every output; docs/benchmarks.md). A value that is not
 * plain JSON data (a `Date`, a class instance with `toJSON`) is redacted through its JSON text as
 * before; undefined and functions are returned as they are.
 */
export function redactJsonValue<T>(value: T, redact: (text: string) => string): T {
  return redactInPlace(value, redact, 0) as T;
}

/** Nesting beyond this is redacted through JSON text rather than recursion (no stack overflow on a hostile body). */
const MAX_WALK_DEPTH = 64;

function redactInPlace(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_WALK_DEPTH) return redactThroughJson(value, redact);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const clean = redactInPlace(item, redact, depth + 1);
      if (clean !== item && copy === undefined) copy = value.slice(0, i);
      copy?.push(clean);
    }
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return redactThroughJson(value, redact);
  // No allocation while everything is clean: the copy is started at the first replaced key or value.
  const object = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const item = object[key];
    const cleanKey = redact(key);
    const clean = redactInPlace(item, redact, depth + 1);
    if (copy === undefined && (cleanKey !== key || clean !== item)) {
      copy = {};
      for (const earlier in object) {
        if (earlier === key) break;
        if (Object.hasOwn(object, earlier)) setOwn(copy, earlier, object[earlier]);
      }
    }
    if (copy !== undefined) setOwn(copy, cleanKey, clean);
  }
  return copy ?? value;
}

/** An own data property, as JSON.parse makes it (a key `__proto__` included, which `=` would not make). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The value's JSON text redacted and parsed again (only when something was replaced). */
function redactThroughJson(value: unknown, redact: (text: string) => string): unknown {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) return value;
  const clean = redact(text);
  return clean === text ? value : (JSON.parse(clean) as unknown);
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
