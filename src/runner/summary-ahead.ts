import type { Task } from '../benchmarks/task.js';
import { summarizeRun, summaryPageSamples, SummaryReader, type RunSummary } from '../analysis/summary.js';
import type { RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { FinalSamples } from './execute.js';

/**
 * The run's summary read while its calls are in flight: each page of samples the drive is finished
 * with (`FinalSamples`) is read and folded then, a page at a time in the run's order, so that the
 * run's end reads only the pages left (at 10,000 MetaTool samples the summary's reading was ~0.1 s
 * of the ~0.14 s between the last answer and the exit: docs/benchmarks.md). The pages are the
 * ones the end would read, folded in the same order: the summary is the same. A read that fails
 * is dropped, and the end reads the whole run as before.
 */
export class SummaryAhead implements FinalSamples {
  readonly step: number;
  /** The reader with every page told so far read into it; undefined once a read failed. */
  private reading: Promise<SummaryReader | undefined> | undefined;

  constructor(
    private readonly store: Store,
    private readonly run: RunRecord,
    private readonly task: Task,
  ) {
    this.step = summaryPageSamples(run.models.length, run.repeats ?? 1);
  }

  told(final: number): void {
    const reader = this.reading ?? SummaryReader.open(this.store, this.run, this.task);
    this.reading = reader.then(async (r) => {
      await r?.readBelow(final);
      return r;
    }).catch(() => undefined);
  }

  /** The summary of `run` as it ended: the pages not read yet read now. */
  async finish(run: RunRecord): Promise<RunSummary> {
    const reader = this.reading === undefined ? undefined : await this.reading;
    return reader ? reader.finish(run) : summarizeRun(this.store, run, this.task);
  }
}
