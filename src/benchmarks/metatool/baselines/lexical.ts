import type { ReferenceAnswer } from '../../../core/index.js';
import { Bm25Index, sStem, splitIdentifier, tokenize } from '../../../text/index.js';
import { EXTERNAL_DATA_CUES } from './cue-words.js';
import type { SelectQuestion } from './questions.js';

/** What the lexical baseline answered and why (kept as the call's raw response for inspection). */
export interface LexicalAnswer extends ReferenceAnswer {
  readonly detail: Readonly<Record<string, unknown>>;
}

/** Query terms for cue matching: every word kept (cues include "now"), lowercase, unstemmed. */
const cueTerms = (text: string): string[] => tokenize(text, { stopWords: false });
const CUE_PHRASES: readonly (readonly string[])[] = EXTERNAL_DATA_CUES.map(cueTerms);

/**
 * A query word matches a cue word as written or after plural folding ("prices" → "price"). Only
 * the query side is folded, so the cue "news" does not fire on "new".
 */
const wordMatches = (word: string | undefined, cue: string): boolean => word !== undefined && (word === cue || sStem(word) === cue);

function containsPhrase(terms: readonly string[], phrase: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= terms.length; start++) {
    if (phrase.every((cue, offset) => wordMatches(terms[start + offset], cue))) return true;
  }
  return false;
}

/**
 * Yes/no by cue words: "yes" when the query contains one of `EXTERNAL_DATA_CUES`, else "no".
 * A crude reference point (it cannot tell "find the derivative" from "find a flight"), not a model.
 */
export function lexicalYesNo(query: string): LexicalAnswer {
  const terms = cueTerms(query);
  const matched = EXTERNAL_DATA_CUES.filter((_cue, index) => containsPhrase(terms, CUE_PHRASES[index] ?? []));
  return { text: matched.length > 0 ? 'yes' : 'no', detail: { matchedCues: matched } };
}

/**
 * Tool selection by BM25 (k1 1.2, b 0.75) of the query against the candidates of this one
 * question; each candidate's document is its name split into words plus its description.
 * Picks the top `maxSelections` by score, ties broken by name (code-unit order). When "None" is
 * allowed, only candidates sharing at least one term with the query (score > 0) are picked, and
 * the answer is "None" when there is none; otherwise exactly `maxSelections` are picked (fewer
 * only if there are fewer candidates).
 */
export function lexicalSelect(hints: SelectQuestion): LexicalAnswer {
  const documents = hints.candidates.map((c) => `${splitIdentifier(c.name).join(' ')} ${c.description}`);
  const scores = new Bm25Index(documents).scores(hints.query);
  const ranked = hints.candidates
    .map((candidate, index) => ({ name: candidate.name, score: scores[index] ?? 0 }))
    .sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const eligible = hints.allowNone ? ranked.filter((r) => r.score > 0) : ranked;
  const chosen = eligible.slice(0, Math.max(0, hints.maxSelections)).map((r) => r.name);
  return {
    text: chosen.length === 0 ? 'None' : chosen.join(', '),
    detail: { scores: Object.fromEntries(ranked.map((r) => [r.name, r.score])) },
  };
}
