import type { ProvenanceDetails, RunRecord } from '../store/index.js';
import { recordedModels } from '../analysis/recorded-run.js';

/** The kinds of config-file entry that are applications rather than models served over a provider's API. */
const APPLICATION_KINDS = new Set(['http', 'module', 'exec']);

/** Harm measurements: the built-in resources (`harm/…`) and a user's folder (`harm:<folder>`). */
function isHarm(task: string): boolean {
  return task.startsWith('harm/') || task.startsWith('harm:');
}

/**
 * For a harm run whose system under test is an application target (`http`, `module`, `exec`),
 * the line a report says it in: such a target is sent the resource's system prompt (as `system`
 * and as the first message) but it is the application's own business whether it uses it — its own
 * instructions usually stand in its place — so the run measures the application as it is, not
 * that prompt. Undefined for any other run (its report unchanged).
 */
export function applicationTargetNote(run: Pick<RunRecord, 'task' | 'models'> & { readonly provenance: ProvenanceDetails }): string | undefined {
  if (!isHarm(run.task)) return undefined;
  const recorded = recordedModels(run);
  const applications = run.models.filter((model) => APPLICATION_KINDS.has(String(recorded[model]?.declaration.kind)));
  if (applications.length === 0) return undefined;
  const named = applications.map((model) => `${model} (${String(recorded[model]?.declaration.kind)})`).join(', ');
  return `${named}: an application target; it was sent the resource's system prompt, and whether it used it is the application's own business — the results measure the application as it is, not that prompt`;
}
