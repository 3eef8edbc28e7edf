import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describeError, InputError } from '../core/index.js';
import type { LeaseHolder, RunEnd, RunLease } from '../store/records.js';
import type { Store } from '../store/store.js';

/** How long a lease lasts without renewal, and how often its holder renews it. */
export interface LeaseSettings {
  readonly ttlMs: number;
  readonly heartbeatMs: number;
}

/**
 * 30 s without a heartbeat before another process may take a run over: long enough that a busy
 * event loop or a slow disk never loses a live run (six beats are missed first), short enough
 * that resuming after a kill -9 does not mean a long wait.
 */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/** The settings for a time to live: a heartbeat every sixth of it (5 s for the default 30 s). */
export function leaseSettings(options: Partial<LeaseSettings> = {}): LeaseSettings {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) throw new InputError(`the run lease's time to live must be a positive whole number of ms, got ${ttlMs}`);
  const heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(ttlMs / 6));
  if (!(heartbeatMs > 0 && heartbeatMs < ttlMs)) throw new InputError(`the run lease's heartbeat (${heartbeatMs} ms) must be shorter than its time to live (${ttlMs} ms)`);
  return { ttlMs, heartbeatMs };
}

/** This process as a lease holder: a fresh id per session, so a restarted process is not mistaken for its predecessor. */
export function thisProcess(): LeaseHolder {
  return { id: randomUUID(), pid: process.pid, host: hostname() };
}

/** Who holds a lease, for messages: `pid 123 on host-a`. */
export const describeHolder = (lease: RunLease): string => `pid ${lease.holder.pid} on ${lease.holder.host}`;

/** Another process holds the run's lease: refused with one line that names it (exit code 2, as bad input). */
export class RunLeasedError extends InputError {
  constructor(readonly lease: RunLease) {
    super(
      `run ${lease.runId} is being run by another process (${describeHolder(lease)}, since ${lease.acquiredAt}; its lease expires at ${lease.expiresAt} unless renewed): ` +
        'not starting a second one; if that process is gone, resume once its lease has expired',
    );
  }
}

/**
 * This process's lease on a run while it runs it: taken by `acquire`, renewed on a timer, ended
 * by `release`. When a renewal finds the lease taken by another holder (this process stalled
 * past the expiry and someone took over), `lost` aborts with the reason: the runner then starts
 * no new sample, and does not write the run's final status over the new holder's.
 */
export class HeldLease {
  private readonly lostController = new AbortController();
  private readonly timer: NodeJS.Timeout;
  /** The renewal under way, so `release` never races one. */
  private renewal: Promise<void> | undefined;
  private released = false;
  /** When the lease ends unless renewed, by this process's clock (for a store that cannot be reached). */
  private expiresBy: number;

  private constructor(
    private readonly store: Store,
    readonly lease: RunLease,
    private readonly settings: LeaseSettings,
    private readonly onWarning: ((message: string) => void) | undefined,
  ) {
    this.expiresBy = Date.now() + settings.ttlMs;
    this.timer = setInterval(() => {
      if (this.renewal || this.released || this.lost.aborted) return;
      this.renewal = this.renew().finally(() => (this.renewal = undefined));
    }, settings.heartbeatMs);
    // The heartbeat alone must not keep a process alive whose run has ended.
    this.timer.unref();
  }

  /** Takes the run's lease or throws `RunLeasedError`; a lease left expired by a dead holder is taken over (with a warning). */
  static async acquire(store: Store, runId: string, settings: LeaseSettings, onWarning?: (message: string) => void): Promise<HeldLease> {
    const claim = await store.acquireRunLease(runId, thisProcess(), settings.ttlMs);
    if (!claim.acquired) throw new RunLeasedError(claim.heldBy);
    if (claim.tookOverFrom) {
      const old = claim.tookOverFrom;
      onWarning?.(`took run ${runId} over from ${describeHolder(old)}, whose lease expired at ${old.expiresAt} without being released (that process stopped without saying so)`);
    }
    return new HeldLease(store, claim.lease, settings, onWarning);
  }

  /** Aborted (with the reason as a string) once the lease is known to be lost. */
  get lost(): AbortSignal {
    return this.lostController.signal;
  }

  private async renew(): Promise<void> {
    const { runId, holder } = this.lease;
    try {
      if (await this.store.renewRunLease(runId, holder.id, this.settings.ttlMs)) {
        this.expiresBy = Date.now() + this.settings.ttlMs;
        return;
      }
      const now = await this.store.runLease(runId);
      this.lose(`run ${runId} was taken over by ${now ? describeHolder(now) : 'another process'} after this process's lease expired`);
    } catch (error) {
      // A failed renewal (the store busy, a network store unreachable) is tried again at the next
      // beat; only once the lease may have expired can another process be running the run.
      if (Date.now() >= this.expiresBy) this.lose(`the lease on run ${runId} could not be renewed before it expired (${describeError(error)})`);
    }
  }

  private lose(reason: string): void {
    clearInterval(this.timer);
    if (this.released) return;
    this.onWarning?.(`${reason}: no new sample starts in this process; the calls in flight finish and are stored`);
    this.lostController.abort(reason);
  }

  /**
   * Stops the heartbeat and ends the lease, recording how the session ends with it when given
   * (final status, models stopped early). False when the lease was no longer ours (the run is
   * then the new holder's to write).
   */
  async release(end?: RunEnd): Promise<boolean> {
    clearInterval(this.timer);
    this.released = true;
    await this.renewal;
    return this.store.releaseRunLease(this.lease.runId, this.lease.holder.id, end);
  }
}
