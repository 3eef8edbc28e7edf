import { randomInt } from 'node:crypto';

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A new run id like `20261121-233358-k3f9`: the UTC date and time (so ids sort by creation and
 * say when a run started) and 4 random base-36 characters (1.7 million values, so two runs
 * started in the same second practically never collide). `random(n)` returns an integer in
 * [0, n); pass one to make the suffix deterministic in tests.
 */
export function newRunId(now: Date = new Date(), random: (n: number) => number = randomInt): string {
  const iso = now.toISOString(); // 2026-11-21T23:33:58.123Z, always UTC
  const date = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 19).replaceAll(':', '');
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += BASE36[random(36)];
  return `${date}-${time}-${suffix}`;
}
