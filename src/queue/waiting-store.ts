import { setTimeout as sleep } from 'node:timers/promises';
import { describeError } from '../core/index.js';
import type { Store } from '../store/store.js';

export interface WaitingStoreOptions {
  /** One line when the store becomes unreachable, one when it answers again. */
  readonly onNote?: (line: string) => void;
  /** Stops waiting (the call's error is thrown) once aborted: a worker closing. */
  readonly signal?: AbortSignal;
  /** First wait between tries; doubled each try up to `maxDelayMs`. */
  readonly firstDelayMs?: number;
  readonly maxDelayMs?: number;
}

/** Methods that are not a call to the store's server: passed through as they are. */
const NOT_RETRIED = new Set<PropertyKey>(['isUnavailable', 'close']);

/**
 * The store as a queue worker (or a submitter following its run) uses it: a call that fails
 * because the store is unreachable (`Store.isUnavailable`: PostgreSQL restarting, a network
 * fault) is tried again, with backoff, until the store answers — however long that takes — so an
 * outage neither burns a unit's job attempts nor loses an outcome already paid for: the same save
 * is made once the store is back. Every other error is thrown at once. Safe to retry: reads;
 * `saveOutcome`, once per unit (a save whose commit went through before the connection broke
 * resolves false the second time); status and lease writes. A `saveCalls` whose commit went
 * through but whose answer was lost would store those calls twice (the ledger and spend count
 * them twice); nothing else would be wrong.
 */
export function waitingStore(store: Store, options: WaitingStoreOptions = {}): Store {
  const first = options.firstDelayMs ?? 500;
  const max = options.maxDelayMs ?? 10_000;
  let waiting = false;
  const patient =
    (method: (...args: unknown[]) => unknown) =>
    async (...args: unknown[]): Promise<unknown> => {
      for (let delay = first; ; delay = Math.min(delay * 2, max)) {
        try {
          const result = await method.apply(store, args);
          if (waiting) {
            waiting = false;
            options.onNote?.('store: reachable again, going on');
          }
          return result;
        } catch (error) {
          if (!store.isUnavailable(error) || options.signal?.aborted) throw error;
          if (!waiting) {
            waiting = true;
            options.onNote?.(`store unreachable (${describeError(error)}): waiting for it to come back, retrying every ${max / 1000} s at most`);
          }
          await sleep(delay, undefined, options.signal ? { signal: options.signal } : {}).catch(() => undefined);
        }
      }
    };
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' && !NOT_RETRIED.has(key) ? patient(value as (...args: unknown[]) => unknown) : value;
    },
  });
}
