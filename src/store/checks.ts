import { InputError } from '../core/errors.js';
import { assertUniqueSampleIds, type Sample } from '../core/index.js';
import type { CallRecord, ResultRecord, RunRecord } from './records.js';

/** What every store refuses the same way, with the same words, before it writes anything. */

/** How many matching ids an "ambiguous prefix" error lists before summarizing the rest. */
const MAX_LISTED_MATCHES = 10;

/** A run's first samples: no more than it says it has, no id twice. */
export function checkRunSamples(run: RunRecord, samples: readonly Sample[]): void {
  if (run.sampleCount !== undefined && samples.length > run.sampleCount) {
    throw new Error(`run ${run.id}: ${samples.length} samples given for a run of ${run.sampleCount}`);
  }
  assertUniqueSampleIds(samples, `run ${run.id}`);
}

/** The calls of an outcome belong to its result's run and sample; undefined when they do. */
export function outcomeMismatch(calls: readonly CallRecord[], result: ResultRecord): Error | undefined {
  for (const call of calls) {
    if (call.runId !== result.runId || call.sampleId !== result.sampleId) {
      return new Error(`saveOutcome: call for ${call.runId}/${call.sampleId} does not belong to result ${result.runId}/${result.sampleId}`);
    }
    // A repeat's calls are its own: stored with another repeat's result they would tell of the wrong answer.
    if ((call.repeat ?? 0) !== (result.repeat ?? 0)) {
      return new Error(`saveOutcome: call for repeat ${call.repeat ?? 0} of ${call.runId}/${call.sampleId} does not belong to result of repeat ${result.repeat ?? 0}`);
    }
  }
  return undefined;
}

/** A lease's time to live is a positive whole number of ms (a programming error otherwise). */
export function checkTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) throw new Error(`a lease's time to live must be a positive whole number of ms, got ${ttlMs}`);
}

/** `getRun('')`: no run id has an empty prefix worth answering. */
export function emptyRunIdError(): InputError {
  return new InputError('run id is empty; give a run id or a prefix of one (see `assay runs`)');
}

/** A prefix several runs start with (`ids` newest first). */
export function ambiguousPrefixError(prefix: string, ids: readonly string[]): InputError {
  const listed = ids.slice(0, MAX_LISTED_MATCHES).join(', ');
  const more = ids.length > MAX_LISTED_MATCHES ? ` and ${ids.length - MAX_LISTED_MATCHES} more` : '';
  return new InputError(`run id prefix "${prefix}" is ambiguous: it matches ${listed}${more}`);
}

/** A score update for a sample without a done result (`updateScores` rolls the whole batch back). */
export function noDoneResultError(runId: string, modelId: string, sampleId: string): Error {
  return new Error(`cannot update score: run ${runId} has no done result for sample "${sampleId}" and model ${modelId}`);
}
