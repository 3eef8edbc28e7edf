import type { ReferenceHints } from '../../../core/index.js';

/**
 * MetaTool's structured questions, the hints its samples carry for the `baseline:` models
 * (`Sample.hints`). Their JSON is what a random answer is seeded by (`hintsHash` over its
 * canonical form): a field renamed, added or removed changes every random baseline's answers.
 */

/** Awareness: does this query need an external tool? */
export interface YesNoQuestion extends ReferenceHints {
  readonly kind: 'yes-no';
  readonly query: string;
}

/** Tool selection: which of these candidates does the query need? */
export interface SelectQuestion extends ReferenceHints {
  readonly kind: 'select';
  readonly query: string;
  readonly candidates: readonly { readonly name: string; readonly description: string }[];
  /** 1 for single-tool tasks, 2 for the multi-tool tasks. */
  readonly maxSelections: number;
  /** Whether answering "None" is allowed (false for "must choose two"). */
  readonly allowNone: boolean;
}

/**
 * The hints as the question a MetaTool answerer is declared for (`METATOOL_ANSWERERS` is looked up
 * by `kind`, so these hold for MetaTool's own samples); a refusal, not a guess, otherwise.
 */
export function asYesNo(hints: ReferenceHints): YesNoQuestion {
  if (hints.kind !== 'yes-no' || typeof hints.query !== 'string') throw new Error(`a MetaTool yes-no answerer was given "${hints.kind}" hints`);
  return hints as YesNoQuestion;
}

/** As `asYesNo`, for a tool-selection question. */
export function asSelect(hints: ReferenceHints): SelectQuestion {
  if (hints.kind !== 'select' || !Array.isArray(hints.candidates)) throw new Error(`a MetaTool select answerer was given "${hints.kind}" hints`);
  return hints as SelectQuestion;
}
