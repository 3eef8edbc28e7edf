import type { Role } from '../core/index.js';
import type { FailFastStop, ResultRecord } from '../store/records.js';

/**
 * How many errors of one kind in a row (for one model, no success between) stop that model.
 * Only kinds that say nothing about the sample and everything about the setup count:
 *
 * - `auth` (401/403, Gemini's API_KEY_INVALID): 1. The key and the account are the same for every
 *   request and a 401 never depends on the prompt, so the next call can only get the same answer.
 * - `not-found` (404, `model_not_found`): 1. The model id and the base URL are the same for every
 *   request too.
 * - `bad-request` (other 4xx): 3 with the identical message. A 400 may be about one sample (a
 *   prompt over the context window, a tool schema the provider refuses), and then its message
 *   usually names that sample's numbers or tools; the same message three times in a row means the
 *   request's shape is refused (a parameter the model does not take), which no sample escapes.
 *   Three keeps a false stop unlikely while wasting at most two calls more than a bad key does.
 *
 * Other kinds (429, 5xx, timeouts, network) are retried by the middleware and come and go: they
 * neither count nor break a streak — once the model has answered (`STOP_UNANSWERED`). Calls
 * already in flight when a model stops still finish: at most `concurrency - 1` after the one that
 * stopped it, so a streak costs at most `STOP_AFTER[kind] + concurrency - 1` calls (with a wrong
 * key from the start: `concurrency`).
 */
export const STOP_AFTER: Readonly<Record<string, number>> = { auth: 1, 'not-found': 1, 'bad-request': 3 };

/**
 * Kinds that count only while a model has not answered once in this session (no fresh answer; a
 * cache hit proves nothing of the endpoint), with the same bound: 3 identical errors in a row,
 * each after the middleware's own retries. A connection refused, a host that does not resolve, or
 * no answer within the timeout, again and again before any answer, is a wrong base URL, a server
 * that is down or a timeout too short for the model: every sample would wait out its retries the
 * same way (a mistyped port once crawled on at 0.2 samples/s). After a first answer they are what
 * they usually are, a network that comes and goes, and neither count nor break a streak.
 */
export const STOP_UNANSWERED: Readonly<Record<string, number>> = { network: 3, timeout: 3 };

/** Why a model (or the judge, and with it the whole run) was stopped; kept with the run (`RunEnd`). */
export type { FailFastStop } from '../store/records.js';
// The line a stop is told in is analysis/'s (a summary, `show` and `runs` read it too); kept here for the queue's workers.
export { describeStop } from '../analysis/recorded-run.js';

export interface FailedCall {
  readonly actor: string;
  readonly role: Role;
  /** The call's error kind (for the judge, its own call's kind, not `judge-…`). */
  readonly kind: string;
  readonly message: string;
}

interface Streak {
  readonly kind: string;
  readonly message: string;
  /** Results of the samples in the streak, not stored yet: stored if the streak breaks, never if it stops the model. */
  readonly held: ResultRecord[];
  stopped: boolean;
}

/**
 * Stops a model early when its errors say every sample will fail the same way (a wrong key, a
 * model that does not exist, a request shape the provider refuses): paying for or waiting on the
 * rest of the run cannot help. The samples in the streak that stopped it get no result (their
 * calls are stored), so a plain `assay resume` calls them again once the cause is fixed. A streak
 * that breaks (a success, or a different error) was about those samples after all: their results
 * are handed back to be stored as errors, as they would have been without this.
 */
export class FailFast {
  private readonly streaks = new Map<string, Streak>();
  private readonly stopList: FailFastStop[] = [];
  /** Actors (`role\nactor`) that answered once in this session: `STOP_UNANSWERED`'s kinds no longer count for them. */
  private readonly answered = new Set<string>();

  /**
   * `enabled: false` (`--no-fail-fast`) stores every error as the sample's result and never stops.
   * `holdResults: false` (a queue worker) still finds the streaks and stops, but holds no result:
   * each error is stored as it comes, since a unit whose result waited in a worker that died would
   * never get one; a stop then leaves the units not started yet for the resume.
   */
  constructor(
    private readonly enabled = true,
    private readonly options: { readonly holdResults?: boolean } = {},
  ) {}

  /** The stops so far, in the order they happened. */
  get stops(): readonly FailFastStop[] {
    return this.stopList;
  }

  /** Whether results are held in a streak that may still be stored (one that stopped nothing yet). */
  get holding(): boolean {
    for (const streak of this.streaks.values()) if (!streak.stopped && streak.held.length > 0) return true;
    return false;
  }

  /** Whether `modelId` may start no new sample: it was stopped, or the judge or the simulated user was (every model's samples need them). */
  stopped(modelId: string): boolean {
    return this.stopList.some((s) => s.role !== 'test' || s.actor === modelId);
  }

  /**
   * A sample ended in this error. `hold`: do not store `result` (its calls are stored by the
   * caller): it is part of a streak. `release`: results of an earlier streak that this error
   * broke, to store now.
   */
  failed(call: FailedCall, result: ResultRecord): { readonly hold: boolean; readonly release: readonly ResultRecord[] } {
    const key = `${call.role}\n${call.actor}`;
    const bound = STOP_AFTER[call.kind] ?? (this.answered.has(key) ? undefined : STOP_UNANSWERED[call.kind]);
    if (!this.enabled || bound === undefined) return { hold: false, release: [] };
    const streak = this.streaks.get(key);
    // Once stopped, whatever still comes back failing is left for the resume, like the streak.
    if (streak?.stopped) return { hold: this.options.holdResults !== false, release: [] };
    let release: readonly ResultRecord[] = [];
    let current = streak;
    if (!current || current.kind !== call.kind || current.message !== call.message) {
      release = current?.held ?? [];
      current = { kind: call.kind, message: call.message, held: [], stopped: false };
      this.streaks.set(key, current);
    }
    current.held.push(result);
    if (current.held.length >= bound) {
      current.stopped = true;
      this.stopList.push({ actor: call.actor, role: call.role, kind: call.kind, message: call.message, count: current.held.length });
    }
    return this.options.holdResults === false ? { hold: false, release: [] } : { hold: true, release };
  }

  /** A call of `actor` got an answer from the provider: its streak, if any, was about those samples. Returns their results to store. */
  succeeded(actor: string, role: Role): readonly ResultRecord[] {
    const key = `${role}\n${actor}`;
    this.answered.add(key);
    const streak = this.streaks.get(key);
    if (!streak || streak.stopped) return [];
    this.streaks.delete(key);
    return this.options.holdResults === false ? [] : streak.held;
  }

  /** At the end of a session: the held results of streaks that did not stop anything, to store. */
  drain(): readonly ResultRecord[] {
    if (this.options.holdResults === false) return [];
    const open: ResultRecord[] = [];
    for (const [key, streak] of this.streaks) {
      if (streak.stopped) continue;
      open.push(...streak.held);
      this.streaks.delete(key);
    }
    return open;
  }
}
