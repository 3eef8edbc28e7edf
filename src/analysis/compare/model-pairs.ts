import { InputError } from '../../core/index.js';
import type { RunRecord } from '../../store/records.js';

/** A model of run A compared with a model of run B (the same model, or the only model of each). */
export interface ModelPair {
  readonly a: string;
  readonly b: string;
}

/**
 * Which models a comparison sets against each other. A model in both runs is compared with
 * itself (before/after a prompt change or a mitigation); models in one run only are left out,
 * with a note. With no model in common, two single-model runs compare their models (two models
 * run apart); anything else is ambiguous and refused.
 */
export function pairModels(runA: RunRecord, runB: RunRecord): { readonly pairs: readonly ModelPair[]; readonly notes: readonly string[] } {
  const shared = runA.models.filter((m) => runB.models.includes(m));
  if (shared.length > 0) {
    const onlyA = runA.models.filter((m) => !shared.includes(m));
    const onlyB = runB.models.filter((m) => !shared.includes(m));
    const notes = [
      ...(onlyA.length > 0 ? [`not compared: ${onlyA.join(', ')} (only in run A)`] : []),
      ...(onlyB.length > 0 ? [`not compared: ${onlyB.join(', ')} (only in run B)`] : []),
    ];
    return { pairs: shared.map((m) => ({ a: m, b: m })), notes };
  }
  const [a] = runA.models;
  const [b] = runB.models;
  if (runA.models.length === 1 && runB.models.length === 1 && a !== undefined && b !== undefined) {
    return { pairs: [{ a, b }], notes: [`different models: ${a} (run A) against ${b} (run B)`] };
  }
  throw new InputError(
    `cannot pair the models of run ${runA.id} (${runA.models.join(', ')}) and run ${runB.id} (${runB.models.join(', ')}): ` +
      'no model is in both, and comparing two different models needs runs of one model each',
  );
}
