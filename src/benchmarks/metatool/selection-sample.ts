import { composedUserMessage, mapPacked, user, withFields, type Sample, type TextParts } from '../../core/index.js';
import type { SelectionMeta } from './metadata.js';
import type { ShownTool } from './prompts.js';
import type { SelectQuestion } from './baselines/questions.js';

/** Everything that makes a tool-selection sample, besides what is derived from it. */
export interface SelectionSampleSpec {
  readonly id: string;
  /** The full user message, or how to make it from its parts each time it is read (see `composedUserMessage`). */
  readonly prompt: string | (() => TextParts);
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
  const candidates = mapPacked(spec.shown, (t) => t.name);
  const goldPositions = mapPacked(spec.meta.gold, (g) => {
    const position = candidates.indexOf(g) + 1;
    if (position === 0) throw new Error(`sample ${spec.id}: gold tool "${g}" is not among the candidates`);
    return position;
  });
  // `{ ...meta, candidates, goldPositions }` without a leading spread (`withFields`): paid each time
  // the engine reads a sample, since MetaTool builds its samples on demand.
  const metadata: SelectionMeta = withFields(spec.meta, { candidates, goldPositions });
  return {
    id: spec.id,
    input: [typeof spec.prompt === 'string' ? user(spec.prompt) : composedUserMessage(spec.prompt)],
    target: spec.target,
    metadata,
    hints: {
      kind: 'select',
      query: spec.meta.query,
      // The shown entries are `{name, description}` already (and shared): no copy per sample.
      candidates: spec.shown,
      maxSelections: spec.meta.maxSelections,
      allowNone: spec.allowNone,
    } satisfies SelectQuestion,
  };
}
