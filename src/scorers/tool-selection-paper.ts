/** The paper's reading of a tool-selection answer. */
export type PaperSelection =
  /** Single-tool: no shown name found — the paper reads this as the answer "None". */
  | { readonly kind: 'none' }
  /** The shown names found (single-tool: exactly one; multi-tool: any number up to two). */
  | { readonly kind: 'tools'; readonly tools: readonly string[] }
  /** The paper's rules decide nothing: it sends these to manual analysis. */
  | { readonly kind: 'manual'; readonly reason: string; readonly found: readonly string[] };

export interface PaperSelectionOptions {
  /** The tool names shown to the model. */
  readonly candidates: readonly string[];
  /** 1 for single-tool tasks (similar, scenario, reliability), 2 for multi-tool tasks. */
  readonly maxSelections: number;
}

/**
 * Reads a tool-selection answer with the MetaTool paper's answer-matching rules (arXiv
 * 2310.03128v6, Appendix C.2; the authors' script in issue #10 of the MetaTool repository):
 * every shown name is tested as a lowercase **substring** of the lowercased answer.
 *
 * Single-tool tasks: no name → `none` (right for reliability, wrong elsewhere); one name and no
 * "none" substring → that tool; more than one name, or one name with "none" → `manual`.
 * Multi-tool tasks: fewer than two names → those names (the caller scores it incorrect, as the
 * paper does); exactly two → those names (correct when both are golds); more → `manual`.
 *
 * Faithful quirks, kept on purpose: substrings, not words ("URLTool" is found inside
 * "PDF&URLTool", so naming the latter finds two names; "none" is found inside "nonetheless");
 * an empty or off-topic answer reads as "None" in single-tool tasks; names that were not shown
 * are not looked for (the paper counts no hallucinations).
 */
export function parseToolSelectionPaper(text: string, options: PaperSelectionOptions): PaperSelection {
  const lower = text.toLowerCase();
  const found = [...new Set(options.candidates)].filter((name) => name !== '' && lower.includes(name.toLowerCase()));
  if (options.maxSelections > 1) {
    if (found.length > 2) return { kind: 'manual', reason: `found ${found.length} shown names where two are chosen`, found };
    return { kind: 'tools', tools: found };
  }
  if (found.length === 0) return { kind: 'none' };
  if (found.length > 1) return { kind: 'manual', reason: `found ${found.length} shown names`, found };
  if (lower.includes('none')) return { kind: 'manual', reason: `found ${found[0]} and "none"`, found };
  return { kind: 'tools', tools: found };
}
