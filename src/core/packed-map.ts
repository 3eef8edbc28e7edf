/**
 * `items.map(f)` whose result is always a packed array. On Node 20's V8, `Array.prototype.map`
 * returns a PACKED array until the function calling it is optimized and a HOLEY one after: the
 * arrays a hot path hands on change their map mid-run, and every optimized function that reads
 * them is thrown away and compiled again once ("wrong map" deopts: MetaTool's candidates and shown
 * tools, a request's messages; docs/benchmarks.md, "arrays that change their map mid-run"). An
 * array pushed to from `[]` stays packed.
 */
export function mapPacked<T, U>(items: readonly T[], f: (item: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) out.push(f(items[i] as T, i));
  return out;
}
