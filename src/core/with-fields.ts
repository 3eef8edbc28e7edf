/**
 * `{ ...base, ...extra }` — the same keys in the same order with the same values — built from an
 * empty object. On Node 20's V8 an object literal that opens with a spread and goes on
 * (`{ ...base, key: value }`, or `{ ...a, ...b }`) clones `base`'s map and then adds each further
 * key through the runtime, making a map of its own for every object: ~1 µs and ~35–65 bytes of
 * old space per object, which only a full GC takes back (a literal that opens with a key, or a
 * lone spread, is fast). A run with repeats made four such objects per call (a repeat's settings,
 * stage and result, and each call record): ~0.4 s and ~20 MB at 98,965 calls by those figures
 * (docs/benchmarks.md, "objects made by a leading spread"). An own
 * `__proto__` key is defined as an own property, as the spread defines it, never set as the
 * prototype: a parsed text's keys stay data.
 */
export function withFields<T extends object, U extends object>(base: T, extra: U): Omit<T, keyof U> & U {
  const out: Record<string, unknown> = {};
  copyFields(out, base);
  copyFields(out, extra);
  return out as Omit<T, keyof U> & U;
}

function copyFields(out: Record<string, unknown>, from: object): void {
  const source = from as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (key === '__proto__') Object.defineProperty(out, key, { value: source[key], enumerable: true, writable: true, configurable: true });
    else out[key] = source[key];
  }
}
