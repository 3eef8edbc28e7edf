import { InputError } from '../core/index.js';
import type { ModelProvider } from '../models/spec.js';

/** How many ids a message names before it only counts the rest. */
const NAMED = 3;

/** `"a", "b", "c" and 12 more`: ids quoted as JSON (a replay id may hold any character), long ones cut. */
export function someIds(ids: readonly string[]): string {
  const shown = ids.slice(0, NAMED).map((id) => JSON.stringify(id.length > 60 ? `${id.slice(0, 57)}...` : id));
  const rest = ids.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

export interface RecordedOutputsScope {
  readonly task: string;
  readonly seed: number;
  /** Every sample id of the run. */
  readonly sampleIds: readonly string[];
  /** The samples this session will ask the provider for (a new run: all of them). */
  readonly toCall: readonly string[];
}

/**
 * Checks a provider that answers only the samples it has recorded outputs for (replay) against
 * the run's samples, before the run is recorded or any model called.
 *
 * A file that matches none of the run's samples (an empty one included) was made for another
 * task, seed or selection: running it would record one `missing-output` error per sample, and
 * any other model of the run would be paid for a comparison that cannot be made. It is refused.
 * A partial match is a choice a user can make on purpose (outputs for a subset, a file made with
 * a larger --limit), so it runs, with warnings naming the ids the file has that the run does not,
 * and counting the samples without an output (they end as `missing-output` errors; add their
 * lines and `resume --retry-errors` calls only those).
 *
 * @returns the warnings to show; nothing when the provider has no fixed set of outputs, or when
 *   this session calls it for no sample (a resume of a run it has finished).
 * @throws InputError naming the provider (and so the file) and how to list the run's sample ids.
 */
export function checkRecordedOutputs(provider: ModelProvider, scope: RecordedOutputsScope): string[] {
  const recorded = provider.sampleIds;
  if (recorded === undefined || scope.toCall.length === 0) return [];
  const listThem = `"assay samples ${scope.task} --seed ${scope.seed}" with the run's other options lists its sample ids`;
  if (recorded.length === 0) {
    throw new InputError(`${provider.id} holds no outputs (the file is empty), so none of the ${scope.sampleIds.length} samples of ${scope.task} could be scored; ${listThem}`);
  }
  const runIds = new Set(scope.sampleIds);
  const unknown = recorded.filter((id) => !runIds.has(id));
  if (unknown.length === recorded.length) {
    throw new InputError(
      `${provider.id} matches none of the ${scope.sampleIds.length} samples of ${scope.task} with seed ${scope.seed}: its ${recorded.length} id(s) (${someIds(unknown)}) are not sample ids of this run; ${listThem}`,
    );
  }
  const warnings: string[] = [];
  if (unknown.length > 0) {
    warnings.push(`${provider.id} has ${unknown.length} output(s) for ids that are not samples of this run (${someIds(unknown)}); they are ignored`);
  }
  const have = new Set(recorded);
  const missing = scope.toCall.filter((id) => !have.has(id));
  if (missing.length > 0) {
    warnings.push(
      `${provider.id} has no output for ${missing.length} of the ${scope.toCall.length} samples to call (${someIds(missing)}): they will end as missing-output errors; add their lines to the file and "assay resume <run> --retry-errors" calls only them`,
    );
  }
  return warnings;
}
