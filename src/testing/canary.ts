/**
 * A canary key and the ways a hostile server can write it back in JSON, for tests that check a key
 * never reaches a store, an export, a report or a terminal.
 */

/** A key with the characters JSON may escape (`/`) or a URL may encode (`+`), long enough to be redacted. */
export const CANARY_KEY = 'sk-CANARY/slash+key-7f3a9c2e';

const unicodeEscape = (char: string, upper = false): string => {
  const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
};

/**
 * The secret as the inside of a JSON string may write it: as a serializer would, with `\/`, with
 * every character a `\u00XX` escape (lower and upper case hex), and mixed (every other character
 * escaped, `/` as `\/`).
 */
export function escapeForms(secret: string): Readonly<Record<string, string>> {
  const chars = [...secret];
  return {
    plain: JSON.stringify(secret).slice(1, -1),
    slash: JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
    unicode: chars.map((c) => unicodeEscape(c)).join(''),
    unicodeUpper: chars.map((c) => unicodeEscape(c, true)).join(''),
    mixed: chars.map((c, i) => (c === '/' ? '\\/' : i % 2 === 0 ? unicodeEscape(c, i % 4 === 0) : c)).join(''),
  };
}

/** JSON text of `value` with each occurrence of `secret` (in any string) written in `form` (one of `escapeForms`). */
export function jsonWithForm(value: unknown, secret: string, form: string): string {
  return inJsonText(JSON.stringify(value), secret, form);
}

/** A JSON text with each occurrence of `secret` as a serializer writes it replaced by `form`. */
export function inJsonText(text: string, secret: string, form: string): string {
  return text.split(JSON.stringify(secret).slice(1, -1)).join(form);
}

/**
 * Whether a text shows the secret in any form a reader could decode: JSON escapes at any depth
 * (`\uXXXX`, `\/`), HTML character references, percent-encoding. Written apart from the
 * redaction it checks.
 */
export function revealsSecret(text: string, secret: string): boolean {
  let decoded = text;
  for (let round = 0; round < 4; round++) {
    decoded = decoded
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\+([/"\\])/g, '$1')
      .replace(/&#x([0-9a-fA-F]+);/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return decoded.includes(secret);
}
