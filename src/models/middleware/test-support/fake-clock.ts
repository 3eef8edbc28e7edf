import type { Clock } from '../clock.js';

/** A clock whose sleeps return at once but advance time, recording every wait (the middleware's tests). */
export function fakeClock(): Clock & { sleeps: number[]; time: number } {
  const clock = {
    time: 0,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.time += ms;
    },
  };
  return clock;
}
