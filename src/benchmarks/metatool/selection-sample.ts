import { user, type Sample } from '../../core/index.js';
import type { SelectionMeta } from './metadata.js';
import { renderActionPrompt, renderSelectionFewShot, type SelectionExample, type SelectionTemplate, type ShownTool } from './prompts.js';

/** Everything that makes a tool-selection sample, besides what is derived from it. */
export interface SelectionSampleSpec {
  readonly id: string;
  /** The full user message. */
  readonly prompt: string;
  readonly shown: readonly ShownTool[];
  readonly target: string | null | readonly string[];
  /** Whether the prompt lets the model answer "None". */
  readonly allowNone: boolean;
  readonly meta: Omit<SelectionMeta, 'candidates' | 'goldPositions'>;
}

/**
 * Builds a selection sample: one user message, the candidate names and gold positions in the
 * metadata, and the structured question in `hints` (descriptions exactly as printed).
 */
export function selectionSample(spec: SelectionSampleSpec): Sample {
  const candidates = spec.shown.map((t) => t.name);
  const goldPositions = spec.meta.gold.map((g) => {
    const position = candidates.indexOf(g) + 1;
    if (position === 0) throw new Error(`sample ${spec.id}: gold tool "${g}" is not among the candidates`);
    return position;
  });
  const metadata: SelectionMeta = { ...spec.meta, candidates, goldPositions };
  return {
    id: spec.id,
    input: [user(spec.prompt)],
    target: spec.target,
    metadata,
    hints: {
      kind: 'select',
      query: spec.meta.query,
      candidates: spec.shown.map((t) => ({ name: t.name, description: t.description })),
      maxSelections: spec.meta.maxSelections,
      allowNone: spec.allowNone,
    },
  };
}

/** The prompt assay writes: the upstream template over the shown list, with five examples when given. */
export function assaySelectionPrompt(template: SelectionTemplate, query: string, shown: readonly ShownTool[], examples: readonly SelectionExample[] | undefined): string {
  const zeroShot = renderActionPrompt(template, query, shown);
  return examples ? renderSelectionFewShot(zeroShot, query, examples) : zeroShot;
}
