import { user, type Sample, type UserMessage } from '../../core/index.js';
import type { SelectionMeta } from './metadata.js';
import { renderActionPrompt, renderSelectionFewShot, type SelectionExample, type SelectionTemplate, type ShownTool } from './prompts.js';

/** Everything that makes a tool-selection sample, besides what is derived from it. */
export interface SelectionSampleSpec {
  readonly id: string;
  /** The full user message, or how to render it (see `lazyUserMessage`). */
  readonly prompt: string | (() => string);
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
    input: [typeof spec.prompt === 'string' ? user(spec.prompt) : lazyUserMessage(spec.prompt)],
    target: spec.target,
    metadata,
    hints: {
      kind: 'select',
      query: spec.meta.query,
      // The shown entries are `{name, description}` already (and shared): no copy per sample.
      candidates: spec.shown,
      maxSelections: spec.meta.maxSelections,
      allowNone: spec.allowNone,
    },
  };
}

/**
 * A user message whose content is rendered each time it is read rather than kept. A rendered
 * MetaTool prompt is ~3 KB and a run holds all of its samples, so keeping only what renders it
 * (shared tool descriptions, the query, the order) keeps memory flat as runs grow; the price is a
 * few microseconds each time the prompt is read (storing, hashing, sending).
 */
export function lazyUserMessage(render: () => string): UserMessage {
  return Object.freeze({
    role: 'user' as const,
    get content(): string {
      return render();
    },
  });
}

/** The prompt assay writes: the upstream template over the shown list, with five examples when given. */
export function assaySelectionPrompt(template: SelectionTemplate, query: string, shown: readonly ShownTool[], examples: readonly SelectionExample[] | undefined): string {
  const zeroShot = renderActionPrompt(template, query, shown);
  return examples ? renderSelectionFewShot(zeroShot, query, examples) : zeroShot;
}
