import { setMaxListeners } from 'node:events';
import { sampleAt, sampleIdAt, withFields, type SamplesByPosition } from '../core/index.js';
import type { Model } from '../models/middleware/model.js';
import type { CallRecord, ResultRecord } from '../store/records.js';
import { FailFast, type FailFastStop } from './fail-fast.js';
import type { RunSession } from './run-session.js';
import { workOnSample, type SampleStage } from './sample-work.js';
import { UnitList } from './unit-list.js';

export interface ProgressEvent {
  readonly modelId: string;
  /** Samples finished in this session (done or error), over all models (with repeats, each repeat counts). */
  readonly finished: number;
  readonly errors: number;
  /** Samples this session has to do, over all models. */
  readonly total: number;
  /** Samples already finished by an earlier session (resume). */
  readonly skipped: number;
}

/** What one drive of a session's samples adds to the session: which samples, and how it is stopped and told. */
export interface ExecuteOptions {
  /** Read by position as each is called (see `SampleList`): a sample not in flight is not held here. */
  readonly samples: SamplesByPosition;
  /** Re-run samples whose stored result is an error. */
  readonly retryErrors: boolean;
  /** Aborts the calls in flight; no new sample starts either. */
  readonly signal?: AbortSignal;
  /** No new sample starts; those in flight finish and are stored (a graceful interrupt, a lost lease). */
  readonly stop?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
  /**
   * For samples made ready as the calls reach them (`SamplesAhead`: a new run's stored as it goes,
   * a resumed run's read from the store): undefined when the sample at this position of `samples`
   * is ready, else a promise that settles once it is. Each position it is asked for is read from
   * `samples` next, unless the run stops first.
   */
  readonly sampleReady?: (index: number) => Promise<void> | undefined;
  /** Told as the samples whose results are all stored grow (see {@link FinalSamples}). */
  readonly onFinal?: FinalSamples;
}

/**
 * A listener for the samples a drive has finished with: `told(n)` says that the samples at
 * positions below `n` have every result they will get from this session stored (or had it before,
 * or will get none: a model stopped early), so that what reads them now reads what the run's end
 * would. Told when `n` has grown by at least `step` since the last time, never at the end (the
 * caller reads the rest then).
 */
export interface FinalSamples {
  readonly step: number;
  told(final: number): void;
}

export interface ExecuteOutcome {
  readonly finished: number;
  readonly errors: number;
  readonly interrupted: boolean;
  /** Why the run stopped before the end, when its budget stopped it. */
  readonly stoppedBy?: string;
  /** Models (or the judge) stopped after errors that repeat for every sample; their samples left unfinished. */
  readonly failedFast?: readonly FailFastStop[];
}

/**
 * Calls every model on every sample not finished yet, scores each output the moment it arrives
 * and stores calls + result in one transaction, so that a crash loses nothing finished and a
 * resume never calls a finished sample again. Each model gets as many workers as its concurrency.
 * A model stops after errors that repeat for every sample unless the engine says not to (`failFast`).
 */
export async function executeSamples(session: RunSession, options: ExecuteOptions): Promise<ExecuteOutcome> {
  const { store, models, budget } = session;
  const { samples, signal, stop } = options;
  /** The first failure of a worker (the store refusing a write): no new sample starts, the others finish theirs, then it is thrown. */
  let failure: { error: unknown } | undefined;
  const stopping = (): boolean => failure !== undefined || Boolean(signal?.aborted) || Boolean(stop?.aborted) || budget?.stopReason !== undefined;
  // Every in-flight call listens to the run's signal (to stop when the run stops): many listeners is normal here.
  if (signal) setMaxListeners(0, signal);
  // What ends the waits (a retry's sleep, a rate limit's hold, the fleet budget's read): the stop as well as the abort.
  const waitSignal = stop && signal ? AbortSignal.any([signal, stop]) : (signal ?? stop);
  if (waitSignal) setMaxListeners(0, waitSignal);
  // Per model, the (position in `samples`, repeat) units still to do: repeat by repeat, so a
  // sample's repeats are far apart (three identical errors in a row are three samples', as fail-fast
  // assumes) and a resume finishes the repeats a stop left.
  const repeats = session.run.repeats ?? 1;
  const queues: { model: Model; todo: UnitList }[] = [];
  const final = options.onFinal ? new FinalFrontier(samples.length, models.length * repeats, options.onFinal, () => failure !== undefined, () => failFast.holding) : undefined;
  let skipped = 0;
  for (const model of models) {
    const todo = new UnitList(samples.length * repeats);
    for (let repeat = 0; repeat < repeats; repeat++) {
      const finished = await store.finishedSampleIds(session.run.id, model.id, { includeErrors: !options.retryErrors, ...(repeat > 0 ? { repeat } : {}) });
      for (let i = 0; i < samples.length; i++) {
        // A new run has nothing finished: no sample need be built to know it is to do.
        if (finished.size === 0 || !finished.has(sampleIdAt(samples, i))) {
          todo.push(i, repeat);
          final?.owe(i);
        }
      }
    }
    skipped += samples.length * repeats - todo.length;
    queues.push({ model, todo });
  }
  const total = queues.reduce((n, q) => n + q.todo.length, 0);
  let finishedCount = 0;
  let errorCount = 0;
  options.onProgress?.({ modelId: '', finished: 0, errors: 0, total, skipped });
  const failFast = new FailFast(session.engine.failFast ?? true);
  /** Results on their way to the store at most, before a finished sample's slot waits for one to be written: as many as calls may be in flight. */
  const maxUnwritten = Math.max(1, models.reduce((n, m) => n + m.settings.concurrency, 0));
  /** Results on their way to the store (its group commit): each counted and told once it is written. */
  const saving = new Set<Promise<void>>();
  /** Results handed to `saveResult` so far: one per unit that ends with one. */
  let handedOn = 0;
  const commit = async (calls: readonly CallRecord[], result: ResultRecord, gather: boolean): Promise<void> => {
    try {
      // A resume with --retry-errors replaces the error results it calls again.
      await store.saveOutcome(calls, result, { replaceError: options.retryErrors, gather });
      finishedCount++;
      if (result.status === 'error') errorCount++;
      options.onProgress?.({ modelId: result.modelId, finished: finishedCount, errors: errorCount, total, skipped });
    } catch (error) {
      failure ??= { error };
    }
  };
  /**
   * Stores a result (its calls were stored before, or go with it) and counts it once written, but
   * does not hold the sample's worker until then: its slot takes the next sample while the store
   * writes this one (with the others of the same turn, in the order they came). Waiting for the
   * commit held a slot for one write per sample, a round trip on PostgreSQL (docs/benchmarks.md,
   * "timeline of one run"). Every save is waited for before the drive ends, and a store that
   * refuses one starts no new sample.
   *
   * While fewer than half the results the run may leave unwritten are on their way, the store may
   * gather this one with the next few milliseconds' (`SaveOptions.gather`: fewer, larger commits);
   * past that a slot may soon have to wait for a write, so it is written at the next turn. So is
   * the drive's last result, with those gathered before it: no other is coming to join them, and
   * the run's end would wait out the gathering (up to `GATHER_MS`) for nothing.
   */
  const saveResult = (calls: readonly CallRecord[], result: ResultRecord): Promise<void> => {
    const last = ++handedOn >= total;
    const saved = commit(calls, result, !last && saving.size < maxUnwritten / 2);
    saving.add(saved);
    void saved.then(() => saving.delete(saved));
    return Promise.resolve();
  };
  /** Waits for every save on its way, then throws the first failure, if any. */
  const savesWritten = async (): Promise<void> => {
    while (saving.size > 0) await Promise.all(saving);
    if (failure) throw failure.error;
  };

  const stage: SampleStage = withFields(session, { runId: session.run.id, repeats: { count: repeats, seed: session.run.seed }, failFast, saveResult, ...(signal ? { signal } : {}), ...(waitSignal ? { waitSignal } : {}) });

  const runQueue = async (model: Model, todo: UnitList): Promise<void> => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < todo.length && !stopping() && !failFast.stopped(model.id)) {
        const position = todo.positionAt(next);
        const repeat = todo.repeatAt(next);
        next++;
        const ready = options.sampleReady?.(position);
        if (ready) {
          await ready;
          // The stop came while this sample was made ready: it has not started, leave it for resume.
          if (stopping() || failFast.stopped(model.id)) return;
        }
        if (budget?.refresh) {
          // A fleet's budget: what the other workers spent counts before this sample starts.
          try {
            await budget.refresh(waitSignal);
          } catch (error) {
            // Aborted by the stop (Redis may be down and the user gave up waiting); anything else is a fault to report.
            if (!stopping()) throw error;
          }
          if (stopping() || failFast.stopped(model.id)) return;
        }
        await workOnSample(stage, model, sampleAt(samples, position), repeat);
        // Its result is on its way to the store, or held in a streak of errors (see `FinalFrontier`).
        final?.done(position, saving);
        // A store slower than the models (PostgreSQL under load) must not let answers pile up
        // unwritten, in memory and lost to a crash: no more of them than calls in flight.
        while (saving.size >= maxUnwritten) await Promise.race(saving);
        // The next sample at the next check phase, once the answers that came with this one are
        // read: undici frees a connection for its next request only then (HTTP/1.1 without
        // pipelining waits a turn), so a request made sooner would only wait, and delay them.
        await nextTurn();
      }
    };
    const guarded = async (): Promise<void> => {
      try {
        await worker();
      } catch (error) {
        failure ??= { error };
      }
    };
    const workers = Math.max(1, Math.min(model.settings.concurrency, todo.length));
    await Promise.all(Array.from({ length: workers }, guarded));
  };

  await Promise.all(queues.map((q) => runQueue(q.model, q.todo)));
  final?.close();
  await savesWritten();
  // Streaks still open at the end stopped nothing: their samples' errors are their results.
  for (const r of failFast.drain()) void saveResult([], r);
  await savesWritten();
  const stoppedBy = finishedCount < total ? budget?.stopReason : undefined;
  // A stop always leaves its streak's samples unfinished, so it always interrupts the run.
  const failedFast = failFast.stops;
  return {
    finished: finishedCount,
    errors: errorCount,
    interrupted: stoppedBy !== undefined || failedFast.length > 0 || ((Boolean(signal?.aborted) || Boolean(stop?.aborted)) && finishedCount < total),
    ...(stoppedBy !== undefined ? { stoppedBy } : {}),
    ...(failedFast.length > 0 ? { failedFast } : {}),
  };
}

/**
 * Which leading samples a drive is finished with (`FinalSamples`): per position, the units still
 * to do (every model's, every repeat's), and the first position that still owes one. When that
 * frontier has moved by a step, the listener is told once every save on its way then is written —
 * unless an unbroken streak of errors holds results back (`FailFast.holding`): a held result is
 * stored later, or never, and may belong below the frontier, so nothing is told until none is held.
 * Nothing is told once a save has failed.
 */
class FinalFrontier {
  /** Units still to do per position: a byte a sample unless a sample has more than 255 units (models × repeats). */
  private readonly owed: Uint8Array | Uint16Array | Uint32Array;
  private frontier = 0;
  /** The frontier last handed to the saves to wait for, and the last told. */
  private asked = 0;
  private told = 0;
  private closed = false;

  constructor(
    samples: number,
    unitsPerSample: number,
    private readonly listener: FinalSamples,
    /** Whether a save failed (its result is not stored). */
    private readonly failed: () => boolean,
    /** Whether fail-fast holds results that may still be stored (`FailFast.holding`); asked only when the frontier has moved by a step. */
    private readonly holding: () => boolean,
  ) {
    this.owed = unitsPerSample <= 0xff ? new Uint8Array(samples) : unitsPerSample <= 0xffff ? new Uint16Array(samples) : new Uint32Array(samples);
  }

  owe(position: number): void {
    this.owed[position] = (this.owed[position] ?? 0) + 1;
  }

  /** A unit of `position` handed its result on (to `saving`, the saves on their way, or held by fail-fast). */
  done(position: number, saving: ReadonlySet<Promise<void>>): void {
    this.owed[position] = (this.owed[position] ?? 1) - 1;
    const owed = this.owed;
    while (this.frontier < owed.length && owed[this.frontier] === 0) this.frontier++;
    if (this.frontier - this.asked < this.listener.step || this.holding()) return;
    const frontier = (this.asked = this.frontier);
    void Promise.all(saving).then(
      () => {
        if (this.closed || this.failed() || frontier <= this.told) return;
        this.told = frontier;
        this.listener.told(frontier);
      },
      () => undefined,
    );
  }

  /** The drive is over: nothing more is told (the caller reads what is left). */
  close(): void {
    this.closed = true;
  }
}

/** Resolves at the next check phase of the event loop (after the I/O of this turn). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
