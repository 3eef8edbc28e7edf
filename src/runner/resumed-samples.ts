import { sampleIdAt, type Sample, type SampleList, type SamplesByPosition } from '../core/index.js';
import { checkRebuildsUnstored, withRebuiltHints } from '../analysis/reopen.js';
import type { RunRecord, StoredSample } from '../store/records.js';
import type { Store } from '../store/store.js';
import { SampleFeed, type SamplesAhead } from './sample-feed.js';

/** Stored samples read per page, as the calls reach them. Small: a resume of scattered errors reads a page for each. */
export const RESUMED_PAGE = 64;
/** Samples whose ids are read per page when a resume opens (their facts only, let go once the ids are taken). */
const IDS_PAGE = 1_024;
/** Pages no call is waiting for that are kept, most recently asked first: a page is asked for again by each call in it. */
const KEPT_PAGES = 8;

interface Page {
  samples: readonly Sample[] | undefined;
  readonly loading: Promise<void>;
  /** Calls that asked for a sample of this page (`ready`) and have not read it yet (`at`): a page with any is kept. */
  waiting: number;
}

/**
 * A stopped run's samples for the session that continues it (`resumeRun`), read by position as
 * the engine reads a new run's (`SamplesByPosition`): the samples the run stored are read from the
 * store a page at a time as the calls reach them (`ready`), each with the reference hints of the
 * rebuilt task (`withRebuiltHints`); those it had not stored yet are the rebuilt task's, stored
 * just ahead of their calls (`SampleFeed`), as a new run's are. The stored samples stay the truth
 * of what was asked, and the session holds only the pages in use and their ids: a resume read
 * every stored sample first, ~7 KB each for MetaTool (10,000 samples: 145 MB against a run's 130).
 */
export class ResumedSamples implements SamplesByPosition, SamplesAhead {
  readonly length: number;
  /** In the order they were last asked for; deleted when evicted. */
  private readonly pages = new Map<number, Page>();
  private readonly withHints: (stored: StoredSample) => Sample;

  private constructor(
    private readonly store: Store,
    private readonly runId: string,
    /** The stored samples' ids, by position. */
    private readonly storedIds: readonly string[],
    private readonly rebuilt: SampleList,
    /** Stores the samples after the stored ones; none when the run stored them all. */
    private readonly feed: SampleFeed | undefined,
  ) {
    this.length = feed ? rebuilt.length : storedIds.length;
    this.withHints = withRebuiltHints(rebuilt);
  }

  /**
   * The run's samples: its stored ids read a page at a time (their facts, not their inputs), and
   * for a run stopped before storing them all, the rebuilt task checked to give the stored ones
   * first (`checkRebuildsUnstored`: else an `InputError`, before anything is called).
   */
  static async open(store: Store, run: RunRecord, rebuilt: SampleList): Promise<ResumedSamples> {
    const ids: string[] = [];
    for (let from = 0; ; from += IDS_PAGE) {
      const page = await store.sampleFacts(run.id, { from, limit: IDS_PAGE });
      for (const sample of page) ids.push(sample.id);
      if (page.length < IDS_PAGE) break;
    }
    const unstored = run.sampleCount !== undefined && ids.length < run.sampleCount;
    if (unstored) checkRebuildsUnstored(run.id, run.sampleCount as number, ids, rebuilt);
    return new ResumedSamples(store, run.id, ids, rebuilt, unstored ? new SampleFeed(store, run.id, rebuilt, ids.length) : undefined);
  }

  /** How many of the run's samples were stored when the session began. */
  get storedCount(): number {
    return this.storedIds.length;
  }

  /** Every sample's id, in order (no sample read). */
  ids(): readonly string[] {
    return Array.from({ length: this.length }, (_, i) => this.idAt(i));
  }

  idAt(index: number): string {
    return index < this.storedIds.length ? (this.storedIds[index] as string) : sampleIdAt(this.rebuilt, index);
  }

  ready(index: number): Promise<void> | undefined {
    if (index >= this.storedIds.length) return this.feed?.ready(index);
    const number = Math.floor(index / RESUMED_PAGE);
    let page = this.pages.get(number);
    if (page) this.pages.delete(number);
    else page = this.load(number);
    this.pages.set(number, page);
    page.waiting++;
    return page.samples ? undefined : page.loading;
  }

  at(index: number): Sample | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    if (index >= this.storedIds.length) return this.rebuilt.at(index);
    const page = this.pages.get(Math.floor(index / RESUMED_PAGE));
    const sample = page?.samples?.[index % RESUMED_PAGE];
    // Read without `ready` first: a bug of the caller, not a sample missing from the run.
    if (!page || !sample) throw new Error(`stored sample ${index} of run ${this.runId} read before it was made ready`);
    if (page.waiting > 0) page.waiting--;
    this.evict();
    return sample;
  }

  async settle(): Promise<void> {
    await this.feed?.settle();
  }

  private load(number: number): Page {
    const page: Page = {
      samples: undefined,
      waiting: 0,
      loading: this.store.loadSamples(this.runId, { from: number * RESUMED_PAGE, limit: RESUMED_PAGE }).then(
        (stored) => {
          page.samples = stored.map(this.withHints);
        },
        (error: unknown) => {
          // The next call that needs this page reads it again; those waiting get the store's error.
          if (this.pages.get(number) === page) this.pages.delete(number);
          throw error;
        },
      ),
    };
    // Those that wait get the rejection; nobody waiting leaves none unhandled.
    page.loading.catch(() => undefined);
    return page;
  }

  /** Drops the least recently asked pages that no call waits for, past `KEPT_PAGES` of them. */
  private evict(): void {
    let idle = 0;
    for (const page of this.pages.values()) if (page.waiting === 0 && page.samples) idle++;
    for (const [number, page] of this.pages) {
      if (idle <= KEPT_PAGES) return;
      if (page.waiting > 0 || !page.samples) continue;
      this.pages.delete(number);
      idle--;
    }
  }
}
