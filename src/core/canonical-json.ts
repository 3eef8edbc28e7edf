import { hash } from 'node:crypto';
import { composedCopyOf, contentPartsOf, joinTextParts, type SharedText, type TextParts } from './text-parts.js';

/**
 * JSON with object keys sorted at every level, so equal values always serialize (and hash)
 * equally whatever order their keys were built in. Hand-written rather than a `JSON.stringify`
 * replacer because it runs once per model call (the cache key) and the replacer form is ~3× slower.
 * Like JSON.stringify it drops `undefined` object members and writes `null` for them in arrays.
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw new TypeError('canonicalJson cannot serialize a BigInt');
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (write(value[i]) ?? 'null');
    return out + ']';
  }
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(Object.keys(record));
  let out = '{';
  let first = true;
  for (const key of keys) {
    // A composed message (or its `plainMessage` copy): its content written from its parts, the same text.
    const member = key === 'content' ? (composedContentJson(record) ?? write(record[key])) : write(record[key]);
    if (member === undefined) continue;
    out += (first ? '' : ',') + keyJson(key) + ':' + member;
    first = false;
  }
  return out + '}';
}

/** `JSON.stringify(key)` of the short keys met again and again (a request's, its messages', a schema's), kept. */
const keyJsons = new Map<string, string>();
const MAX_KEPT_KEYS = 1024;
const MAX_KEPT_KEY_LENGTH = 64;

function keyJson(key: string): string {
  let json = keyJsons.get(key);
  if (json === undefined) {
    json = JSON.stringify(key);
    if (key.length <= MAX_KEPT_KEY_LENGTH && keyJsons.size < MAX_KEPT_KEYS) keyJsons.set(key, json);
  }
  return json;
}

/**
 * `JSON.stringify(message.content)` of a message composed from parts (`composedUserMessage`, or
 * its `plainMessage` copy), written from the parts' JSON (see `partsJson`); undefined for any
 * other message. On a copy it is written once and kept with the copy: the cache key (here) and the
 * request body a provider sends (`openai-provider.ts`) take the same text.
 */
export function composedContentJson(message: object): string | undefined {
  const copy = composedCopyOf(message);
  if (copy !== undefined) return (copy.json ??= partsJson(copy.parts));
  const parts = contentPartsOf(message);
  return parts === undefined ? undefined : partsJson(parts);
}

/** The JSON of each shared stretch's text without its quotes, made once per stretch. */
const sharedJson = new WeakMap<SharedText, string>();

// What JSON.stringify escapes in a string: the quote, the backslash, control characters and lone
// surrogates (any surrogate here, to keep the test simple: a pair written by JSON.stringify is unchanged).
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Below this length a text is checked character by character: cheaper than calling the regular expression. */
const SHORT_TEXT = 32;

/** Whether JSON.stringify escapes anything in `text` (see `NEEDS_ESCAPE`). */
function needsEscape(text: string): boolean {
  if (text.length >= SHORT_TEXT) return NEEDS_ESCAPE.test(text);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return true;
  }
  return false;
}

/** `JSON.stringify(text)` without its quotes; a text with nothing to escape is its own JSON. */
const innerJson = (text: string): string => (needsEscape(text) ? JSON.stringify(text).slice(1, -1) : text);

/**
 * The keys in the order `Array.prototype.sort` puts them (code unit order; keys are distinct),
 * sorted in place. A few keys — a message, a request, its settings — are sorted by insertion:
 * `sort` allocates its work arrays even for two keys, several times per model call.
 */
function sortedKeys(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * `JSON.stringify(joinTextParts(parts))`, made from each part's own JSON (a shared stretch's
 * cached): escaping is per character, so the JSON of a join is the join of the JSONs, except where
 * a surrogate pair is split between two parts (escaped alone, a half is written as `\udxxx`);
 * then the joined text is written instead. Saves escaping a ~2.5 KB MetaTool prompt per call.
 */
function partsJson(parts: TextParts): string {
  let out = '"';
  let previous = '';
  for (const part of parts) {
    const text = typeof part === 'string' ? part : part.shared;
    if (text.length === 0) continue;
    if (previous.length > 0 && isHighSurrogate(previous.charCodeAt(previous.length - 1)) && isLowSurrogate(text.charCodeAt(0))) return JSON.stringify(joinTextParts(parts));
    if (typeof part === 'string') out += innerJson(part);
    else {
      let json = sharedJson.get(part);
      if (json === undefined) {
        json = innerJson(part.shared);
        sharedJson.set(part, json);
      }
      out += json;
    }
    previous = text;
  }
  return out + '"';
}

/** One-shot `crypto.hash`: ~3 µs less per call than a `createHash` object (it runs for every model call's cache key). */
export const sha256 = (text: string | Buffer): string => hash('sha256', text, 'hex');
