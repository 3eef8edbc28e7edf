import type { SampleList } from '../core/index.js';
import type { Store } from '../store/store.js';
import { storedChunk } from './stored-sample.js';

/** Samples stored per transaction once the calls have started. */
export const SAMPLE_CHUNK = 256;

/** Samples made ready just ahead of the calls that need them: a new run's stored (`SampleFeed`), a resumed run's read from the store (`ResumedSamples`). */
export interface SamplesAhead {
  /** Undefined when sample `index` is ready; else a promise that settles once it is (`ExecuteOptions.sampleReady`). */
  ready(index: number): Promise<void> | undefined;
  /** Waits for the work under way (a chunk being written), its error left to the calls that need it. */
  settle(): Promise<void>;
}

/**
 * Stores a new run's samples in chunks just ahead of the calls that need them, rather than all
 * before the first call. Storing 10,000 MetaTool samples takes ~0.15–0.2 s of main-thread time:
 * before the first call that is wall time outright, while spread over the run in chunks of a few
 * milliseconds it fits in the waits for answers (docs/benchmarks.md). A sample is stored before
 * its call starts, so its calls and result always have their sample row.
 *
 * The next chunk is written once the calls come within half a chunk of the last stored sample. A
 * run stopped early has only its first samples stored; the run records how many it has
 * (`RunRecord.sampleCount`) and resume stores the rest (`ResumedSamples`, through a feed of its own).
 */
export class SampleFeed implements SamplesAhead {
  private stored: number;
  private writing: Promise<void> | undefined;
  private failure: { readonly error: unknown } | undefined;

  /**
   * `samples`: all of the run's, in order (each chunk is built from them when it is stored, in
   * its stored form); `storedAlready`: how many of the first are in the store.
   */
  constructor(
    private readonly store: Store,
    private readonly runId: string,
    private readonly samples: SampleList,
    storedAlready: number,
    private readonly chunk = SAMPLE_CHUNK,
  ) {
    this.stored = storedAlready;
  }

  /** How many of the first samples are stored. */
  get storedCount(): number {
    return this.stored;
  }

  /**
   * Undefined when sample `index` is stored already (no promise on the hot path); else a promise
   * that settles once it is, or rejects with the store's error.
   */
  ready(index: number): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure.error);
    if (index + this.chunk / 2 >= this.stored) void this.writeNext();
    return index < this.stored ? undefined : this.waitFor(index);
  }

  /** Waits for a chunk being written (its error is for the calls that need it, not for this). */
  async settle(): Promise<void> {
    await this.writing?.catch(() => undefined);
  }

  private writeNext(): Promise<void> {
    if (this.writing || this.stored >= this.samples.length) return this.writing ?? Promise.resolve();
    const from = this.stored;
    const to = Math.min(from + this.chunk, this.samples.length);
    // On the next turn of the event loop, so the call that asked goes out first.
    const writing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.store.addSamples(this.runId, storedChunk(this.samples, from, to)))
      .then(
        () => {
          this.stored = to;
          this.writing = undefined;
        },
        (error: unknown) => {
          this.failure = { error };
          this.writing = undefined;
          throw error;
        },
      );
    // Rejections reach the calls waiting for these samples (`waitFor`); none is left unhandled.
    writing.catch(() => undefined);
    this.writing = writing;
    return writing;
  }

  private async waitFor(index: number): Promise<void> {
    if (index >= this.samples.length) throw new RangeError(`sample ${index} asked of a run of ${this.samples.length}`);
    while (index >= this.stored) {
      if (this.failure) throw this.failure.error;
      await this.writeNext();
    }
  }
}
