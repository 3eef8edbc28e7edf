import { InputError, sampleIdAt, samplesBetween, type Sample, type SampleList, type SamplesByPosition } from '../core/index.js';
import { prepareTask } from '../benchmarks/prepare-task.js';
import { taskOfRun } from '../benchmarks/task-of-run.js';
import type { PreparedTask, Task } from '../benchmarks/task.js';
import { createEmbedder } from '../models/embedders.js';
import type { ResultRecord, RunRecord, StoredSample } from '../store/records.js';
import type { Store } from '../store/store.js';
import { summaryPageSamples } from './summary.js';

/**
 * Rebuilds the scorer of a stored run from the same task, options, seed and data, and checks the
 * data did not change since. The stored samples stay the truth for what was asked; their
 * reference hints (not stored) are taken from the rebuilt task. A run stopped before it stored
 * all its samples (see SampleFeed) gets the rest from the rebuilt task, as `unstored`, once the
 * rebuilt task is checked to reproduce the stored ones.
 */
export async function reopen(
  store: Store,
  run: RunRecord,
  dataDir?: string,
  options = run.options,
): Promise<{ task: Task; prepared: PreparedTask; samples: Sample[]; unstored: Sample[] }> {
  const { task, prepared } = await prepareForRun(run, dataDir, options);
  const withHints = withRebuiltHints(prepared.samples);
  const samples: Sample[] = (await store.loadSamples(run.id)).map(withHints);
  const unstored = run.sampleCount !== undefined && samples.length < run.sampleCount ? unstoredSamples(run.id, run.sampleCount, samples, prepared.samples) : [];
  return { task, prepared, samples: [...samples, ...unstored], unstored };
}

/** A page of a stored run as `reopenedPages` reads it: its stored samples, with their hints, and every result of theirs. */
export interface ReopenedPage {
  /** In position order, each as `reopen` gives it (its reference hints from the rebuilt task). */
  readonly samples: readonly Sample[];
  /** Every model's and repeat's results of these samples, with their outputs, as `Store.results` orders them. */
  readonly results: readonly ResultRecord[];
}

/**
 * A stored run's samples as `reopen` gives them, and their results, a page at a time (as many
 * samples as hold `SUMMARY_PAGE` results): for a reader of every output (`rescore`, `show
 * --readings`) whose memory is then a page's, not the run's. Only the samples the run stored:
 * those it had not stored have no result.
 */
export async function* reopenedPages(store: Store, run: RunRecord, prepared: PreparedTask): AsyncGenerator<ReopenedPage> {
  const withHints = withRebuiltHints(prepared.samples);
  const limit = summaryPageSamples(run.models.length, run.repeats ?? 1);
  for (let from = 0; ; from += limit) {
    const range = { from, limit };
    const stored = await store.loadSamples(run.id, range);
    if (stored.length === 0) return;
    yield { samples: stored.map(withHints), results: await store.results(run.id, undefined, { range }) };
    if (stored.length < limit) return;
  }
}

/**
 * A stored sample with the reference hints of the rebuilt task's sample of the same id. That is
 * the rebuilt sample at the same position, as a run stores its samples in the order its task
 * builds them; a map of the rebuilt samples by id is made only if one is not (an older build of
 * the task). A map made up front held every rebuilt sample at once, beside the stored ones.
 */
export function withRebuiltHints(rebuilt: SampleList): (stored: StoredSample) => Sample {
  let byId: Map<string, Sample> | undefined;
  const rebuiltOf = (stored: StoredSample): Sample | undefined => {
    const i = stored.index;
    // `idAt`, where the list has it, tells a moved sample without building it.
    const atPosition = i < rebuilt.length && (rebuilt.idAt?.(i) ?? stored.id) === stored.id ? rebuilt.at(i) : undefined;
    if (atPosition?.id === stored.id) return atPosition;
    byId ??= new Map(Array.from(rebuilt, (s) => [s.id, s] as const));
    return byId.get(stored.id);
  };
  return (stored) => {
    const hints = rebuiltOf(stored)?.hints;
    return hints ? { ...stored, hints } : stored;
  };
}

/** The run's task prepared again from the data dir (also a queue worker's, `openRunForWork`), its data checked against the sums the run recorded. */
export async function prepareForRun(run: RunRecord, dataDir?: string, options = run.options): Promise<{ task: Task; prepared: PreparedTask }> {
  const task = taskOfRun(run);
  const dir = dataDir ?? run.provenance.dataDir;
  if (!dir) throw new InputError(`run ${run.id} does not record its data dir; pass --data-dir`);
  const prepared = await prepareTask(task, { dataDir: dir, seed: run.seed, options, createEmbedder });
  for (const [file, checksum] of Object.entries(run.provenance.datasetChecksums)) {
    const now = prepared.datasetChecksums[file];
    if (now !== checksum) throw new InputError(`data file ${file} has changed since run ${run.id} (sha256 ${checksum.slice(0, 12)}… then, ${now ? now.slice(0, 12) + '…' : 'missing'} now)`);
  }
  return { task, prepared };
}

/** The samples after the stored ones, from a rebuilt task that must reproduce the stored ones in order. */
function unstoredSamples(runId: string, sampleCount: number, stored: readonly Sample[], rebuilt: SampleList): Sample[] {
  checkRebuildsUnstored(runId, sampleCount, stored.map((s) => s.id), rebuilt);
  return samplesBetween(rebuilt, stored.length, rebuilt.length);
}

/**
 * For a run stopped before it stored all its samples: refuses a rebuilt task that does not give
 * the run's number of samples, or not the stored ones' ids (`storedIds`, in order) first, as the
 * rest is then taken from it.
 */
export function checkRebuildsUnstored(runId: string, sampleCount: number, storedIds: readonly string[], rebuilt: SamplesByPosition): void {
  const differs = storedIds.findIndex((id, i) => i >= rebuilt.length || sampleIdAt(rebuilt, i) !== id);
  if (rebuilt.length !== sampleCount || differs !== -1) {
    const now = differs !== -1 && differs < rebuilt.length ? sampleIdAt(rebuilt, differs) : 'missing';
    const why = differs !== -1 ? `sample ${differs} is "${now}" now, "${storedIds[differs]}" then` : `${rebuilt.length} samples now, ${sampleCount} then`;
    throw new InputError(`run ${runId} stopped before storing its last ${sampleCount - storedIds.length} samples, and its task no longer builds the same ones (${why}); they cannot be rebuilt`);
  }
}
