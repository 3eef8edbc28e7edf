/** A yes/no answer, or null when the text gives none we can read (no verdict). */
export type YesNo = 'yes' | 'no' | null;

// Decoration a model puts before its answer: whitespace, quotes (straight, curly, backtick) and
// markdown emphasis/heading/quote markers. Stripped repeatedly, together with an answer label.
const LEADING_DECORATION = /^[\s"'“”‘’`*_#>]+/u;

// "Answer:", "answer -", "Final answer —": the label some models print before the verdict.
const LEADING_LABEL = /^(?:final\s+)?answer\s*[:\-–—]/iu;

// The first word must be exactly yes/no. What follows may be the end of the text, whitespace or
// punctuation ("Yes.", "No,", "**Yes**"), but not a letter or digit ("Yesterday", "Nope", "Noted")
// and not a hyphen or apostrophe joining another word ("No-one", "Yes-man", "No's"), which make
// a different word.
const LEADING_VERDICT = /^(yes|no)(?![\p{L}\p{N}]|['’-][\p{L}\p{N}])/iu;

/**
 * Reads the answer's *leading* yes/no, for the MetaTool awareness question "does this query need a
 * tool?". Leading whitespace, quotes (`" ' “ ” ‘ ’` and backtick), markdown markers (`* _ # >`)
 * and an answer label (`Answer:`, `answer -`, `Final answer:`, any case) are skipped; then the first
 * word, in any case, must be exactly `yes` or `no`.
 *
 * When to use: the default, strict reading; an answer that hedges before its verdict ("I think
 * yes") is a no verdict rather than a guess. When not to use: to reproduce the paper's numbers
 * (see {@link parseYesNoPaper}).
 *
 * @returns `'yes'`, `'no'`, or `null` when the answer does not start with one of them.
 */
export function parseYesNoStrict(text: string): YesNo {
  let rest = text;
  for (;;) {
    const stripped = rest.replace(LEADING_DECORATION, '').replace(LEADING_LABEL, '');
    if (stripped === rest) break;
    rest = stripped;
  }
  const match = LEADING_VERDICT.exec(rest);
  if (!match?.[1]) return null;
  return match[1].toLowerCase() === 'yes' ? 'yes' : 'no';
}

/** The paper's reading of an awareness answer: yes, no, or **manual analysis** (its rules decide nothing). */
export type PaperYesNo = 'yes' | 'no' | 'manual';

/**
 * With "no" present and "yes" absent, one of these phrases makes the paper read `no`; without one
 * it reads `yes` (the quirk). Verbatim from the MetaTool authors' evaluation script (MetaTool
 * repository, issue #10; arXiv 2310.03128v6 Appendix C.2).
 */
export const PAPER_NEGATIVE_PHRASES: readonly string[] = Object.freeze([
  'not seem necessary',
  'not think it is necessary',
  'not need to use',
  'not necessary to use',
  'do not think i need to use',
]);

/** Words whose presence stops a "yes" answer from reading `yes` by rule 2 ("don’t" with the typographic apostrophe, as published). */
export const PAPER_YES_BLOCKERS: readonly string[] = Object.freeze(['no', 'not', 'don\u2019t']);

/** Phrases that make the paper read `yes` when rules 1 and 2 did not decide (rule 3), verbatim from the same script. */
export const PAPER_POSITIVE_PHRASES: readonly string[] = Object.freeze([
  'i need to use',
  'i think it is necessary',
  'i may need to use',
  'i would need to use',
  'i believe it is necessary to use',
  'would need access',
  'might be necessary to use',
  'i might need to use',
  'tools would be necessary',
  'may be necessary to use',
  'be beneficial to use',
  'i will need to use',
  'might need to use',
  'would need to rely',
  'may need to access',
]);

/**
 * Reads an awareness answer exactly as the MetaTool authors' evaluation script does (issue #10 of
 * the MetaTool repository, Appendix C.2 of the paper), so that assay's numbers compare with the
 * paper's tables. Substring tests on the lowercased text, in this order:
 * 1. "no" present and "yes" absent → `no` if a phrase of {@link PAPER_NEGATIVE_PHRASES} is
 *    present, otherwise **`yes`** (the quirk: a bare "No." reads as yes, and so does "I know");
 * 2. "yes" present and none of "no", "not", "don’t" → `yes`;
 * 3. a phrase of {@link PAPER_POSITIVE_PHRASES} present → `yes`;
 * 4. otherwise → `manual` (the paper sends these to manual analysis; assay stores them as such
 *    and leaves them out of the metrics' denominators, as the paper does).
 *
 * Substrings, not words, on purpose: "yesterday" contains "yes", "know" and "nothing" contain
 * "no". "don't" with a straight apostrophe is not a blocker (the script lists only "don’t").
 *
 * When to use: `--parser paper`, to compare with the paper. When not to use: measuring a model
 * (prefer {@link parseYesNoStrict}: its rules do not turn a "No." into a yes).
 */
export function parseYesNoPaper(text: string): PaperYesNo {
  const lower = text.toLowerCase();
  const has = (phrase: string): boolean => lower.includes(phrase);
  if (has('no') && !has('yes')) return PAPER_NEGATIVE_PHRASES.some(has) ? 'no' : 'yes';
  if (has('yes') && !PAPER_YES_BLOCKERS.some(has)) return 'yes';
  if (PAPER_POSITIVE_PHRASES.some(has)) return 'yes';
  return 'manual';
}
