import { rngFor, sampleWithoutReplacement } from './random.js';

/**
 * `n` of the positions 0 … categories.length − 1 drawn at random, seeded by `seed`, in
 * proportion to each position's category, returned in position order (all of them when n is at
 * least their number). Each category gets ⌊n·size/total⌋ positions and the few left over go one
 * each to the categories with the largest remainders (ties: the larger category, then the name):
 * the largest-remainder rule, so a category's share of the sample is its share of the whole within
 * one position. Positions without a category (undefined) form one category of their own; with
 * no categories at all this is a plain seeded sample. Each category draws from its own random
 * stream (`sample:<category>`), so one category's draw never shifts another's.
 */
export function stratifiedPositions(categories: readonly (string | undefined)[], n: number, seed: number): number[] {
  const total = categories.length;
  if (n >= total) return categories.map((_, i) => i);
  const groups = new Map<string, number[]>();
  categories.forEach((category, position) => {
    const key = category === undefined ? '\u0000none' : `=${category}`;
    const group = groups.get(key);
    if (group) group.push(position);
    else groups.set(key, [position]);
  });
  const shares = [...groups].map(([key, positions]) => ({ key, positions, quota: Math.floor((n * positions.length) / total), remainder: (n * positions.length) % total }));
  let left = n - shares.reduce((sum, s) => sum + s.quota, 0);
  const byRemainder = [...shares].sort((a, b) => b.remainder - a.remainder || b.positions.length - a.positions.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const share of byRemainder) {
    if (left === 0) break;
    share.quota++;
    left--;
  }
  const chosen = shares.flatMap((s) => sampleWithoutReplacement(s.positions, s.quota, rngFor(seed, `sample:${s.key}`)));
  return chosen.sort((a, b) => a - b);
}
