import { InputError, samplesBetween, type Sample, type SampleList } from '../core/index.js';
import { prepareTask } from '../benchmarks/prepare-task.js';
import { taskOfRun } from '../benchmarks/task-of-run.js';
import type { PreparedTask, Task } from '../benchmarks/task.js';
import { createEmbedder } from '../models/embedders.js';
import type { RunRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

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
  const rebuilt = new Map(Array.from(prepared.samples, (s) => [s.id, s] as const));
  const samples: Sample[] = (await store.loadSamples(run.id)).map((stored) => {
    const hints = rebuilt.get(stored.id)?.hints;
    return hints ? { ...stored, hints } : stored;
  });
  const unstored = run.sampleCount !== undefined && samples.length < run.sampleCount ? unstoredSamples(run.id, run.sampleCount, samples, prepared.samples) : [];
  return { task, prepared, samples: [...samples, ...unstored], unstored };
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
  const differs = stored.findIndex((sample, i) => rebuilt.at(i)?.id !== sample.id);
  if (rebuilt.length !== sampleCount || differs !== -1) {
    const why = differs !== -1 ? `sample ${differs} is "${rebuilt.at(differs)?.id ?? 'missing'}" now, "${stored[differs]?.id}" then` : `${rebuilt.length} samples now, ${sampleCount} then`;
    throw new InputError(`run ${runId} stopped before storing its last ${sampleCount - stored.length} samples, and its task no longer builds the same ones (${why}); they cannot be rebuilt`);
  }
  return samplesBetween(rebuilt, stored.length, rebuilt.length);
}
