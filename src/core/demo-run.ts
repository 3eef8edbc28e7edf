import { parseModelId } from './model-id.js';

/**
 * What every output of a demo run says (`assay demo`): its models are scripted answers played by
 * a loopback server, so its numbers measure nothing.
 */
export const DEMO_NOTE = 'scripted demo answers — not a real model (assay demo)';

/** The model ids a run names: under test, judge, simulated user. */
export interface RunModelIds {
  readonly models: readonly string[];
  readonly judge?: { readonly model: string } | null;
  readonly userModel?: string | null;
}

/** Whether a model id is one of the demo's scripted models (`demo:…`, answered only inside `assay demo`). */
export function isDemoModel(id: string): boolean {
  try {
    return parseModelId(id).provider === 'demo';
  } catch {
    return false;
  }
}

/**
 * A run made by `assay demo`: one of its models is a `demo:` model. Known from the record alone
 * (the ids are stored with the run), so `show`, `runs` and reports label it without a flag of its
 * own, and no real run can be taken for one: `demo:` ids answer nowhere else.
 */
export function isDemoRun(run: RunModelIds): boolean {
  return [...run.models, run.judge?.model, run.userModel].some((id) => typeof id === 'string' && isDemoModel(id));
}
