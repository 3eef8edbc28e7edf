import { reviewReadingOfRun } from '../../analysis/review.js';
import { taskOfRun } from '../../benchmarks/task-of-run.js';
import { buildRunReport, type RunReport } from '../run-report.js';
import { sampleDetail, type SampleDetail } from '../sample-rows.js';
import type { RunRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { runProgress, type RunProgress } from './run-progress.js';

/** A run's report for the viewer: summaries and the sample index, no details (they are read per row, on demand). */
interface Cached {
  /** The run's progress when the report was built: a report is rebuilt only when this changes. */
  readonly fingerprint: string;
  readonly report: Promise<RunReport>;
}

/** How many runs' reports the viewer keeps: a 100,000-sample run's index is a few MB. */
const KEEP = 8;

/**
 * The viewer's reports, built from the store with no sample details (so opening a run reads no
 * output) and kept until the run's progress changes: a finished run is built once, a running one
 * again when a result lands. Concurrent requests for one run share one build.
 */
export class RunReports {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly store: Store) {}

  /** The run by its full id (never a prefix: URLs name runs exactly), or undefined. */
  async run(id: string): Promise<RunRecord | undefined> {
    const run = await this.store.getRun(id);
    return run?.id === id ? run : undefined;
  }

  async progress(run: RunRecord): Promise<RunProgress> {
    return runProgress(this.store, run);
  }

  async report(run: RunRecord): Promise<RunReport> {
    const progress = await this.progress(run);
    const fingerprint = JSON.stringify([progress.status, progress.updatedAt, progress.progress, (await this.store.reviews(run.id)).length]);
    const cached = this.cache.get(run.id);
    if (cached && cached.fingerprint === fingerprint) {
      // Most recently used last, so the oldest is the one let go.
      this.cache.delete(run.id);
      this.cache.set(run.id, cached);
      return cached.report;
    }
    const report = buildRunReport(this.store, run.id, { details: { mode: 'limit', limit: 0 } });
    this.cache.delete(run.id);
    this.cache.set(run.id, { fingerprint, report });
    report.catch(() => this.cache.get(run.id)?.report === report && this.cache.delete(run.id));
    while (this.cache.size > KEEP) this.cache.delete(this.cache.keys().next().value as string);
    return report;
  }

  /**
   * One row of the run's sample index in full (prompt, output, score, review, every call): read
   * for that sample alone. Undefined for a row the index does not have.
   */
  async detail(run: RunRecord, row: number): Promise<SampleDetail | undefined> {
    if (!Number.isSafeInteger(row) || row < 0) return undefined;
    // A row names the same (sample, model) in every build (samples are only ever appended), so a
    // kept index serves without checking the run's progress first; a row past it needs the newest.
    let index = (await this.cache.get(run.id)?.report.catch(() => undefined))?.index;
    if (!index || row >= index.rows.sample.length) index = (await this.report(run)).index;
    if (row >= index.rows.sample.length) return undefined;
    const sampleId = index.ids[index.rows.sample[row] as number] as string;
    const model = index.models[index.rows.model[row] as number] as string;
    // A run with repeats has a row per answer: its repeat picks the result and the calls.
    const repeat = index.rows.repeat?.[row];
    const [samples, results, calls, reviews] = await Promise.all([
      this.store.samplesOf(run.id, [sampleId]),
      this.store.resultsOf(run.id, [sampleId]),
      this.store.callsOf(run.id, [sampleId]),
      this.store.reviews(run.id),
    ]);
    const sample = samples[0];
    if (!sample) return undefined;
    const result = results.find((r) => r.modelId === model && (r.repeat ?? 0) === (repeat ?? 0));
    // A review is of the (sample, model): shown with its first answer, as the report shows it.
    const review = (repeat ?? 0) === 0 ? reviews.find((r) => r.sampleId === sampleId && r.modelId === model) : undefined;
    const task = taskOfRun(run);
    return sampleDetail(sample, model, result, review, calls, reviewReadingOfRun(run, task), task, repeat);
  }
}
