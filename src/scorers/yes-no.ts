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

/**
 * Phrases that make {@link parseYesNoPaper} read an answer without "yes" as `'no'` (matched as
 * lowercase substrings). Without one of them, an answer containing "no" counts as `'yes'`.
 */
export const PAPER_NEGATIVE_PHRASES: readonly string[] = Object.freeze([
  'no need',
  'not need',
  "don't need",
  'do not need',
  "doesn't need",
  'does not need',
  'not necessary',
  'unnecessary',
  'no external tool',
  'without external tool',
  'without the need',
  'not require',
  "doesn't require",
  'does not require',
  'no.',
  'no,',
  'answer: no',
]);

// A lowercase answer that starts with the word "no": "no", "no.", "no,", "no ", "no\n"…
const STARTS_WITH_NO = /^no(?!\p{L})/u;

/**
 * Reads a yes/no answer with the MetaTool paper's substring rules (Appendix C.2, as SPEC.md §2
 * describes them), so that assay's awareness numbers can be compared with the paper's tables.
 *
 * The rules, in order, on the lowercased text:
 * 1. contains the substring `yes` → `'yes'` (anywhere, whatever else the text says);
 * 2. contains a phrase of {@link PAPER_NEGATIVE_PHRASES}, or starts (after leading whitespace)
 *    with the word `no` → `'no'`;
 * 3. contains the substring `no` → `'yes'`;
 * 4. otherwise → `null` (no verdict).
 *
 * Faithful to the paper: substring (not word) matching, "yes" winning over everything, and rule 3,
 * **the quirk**: a "no" that is neither in a listed negative phrase nor at the start counts as
 * "yes". Because matching is by substring, "no" is found inside other words: "I know the answer"
 * or "Nothing else" reads as `'yes'`, and "yesterday" reads as `'yes'` as well.
 *
 * Our additions (the paper's exact phrase list is not published with its code): the phrase list
 * above, and the leading-"no" rule, which skips leading whitespace and also accepts a bare "no"
 * at the end of the text.
 *
 * When to use: reproducing the paper's awareness numbers (`--parser paper`). When not to use:
 * measuring a model; prefer {@link parseYesNoStrict}, which reports unreadable answers as no verdict.
 */
export function parseYesNoPaper(text: string): YesNo {
  const lower = text.toLowerCase();
  // Substring tests on purpose (see the JSDoc): "i know" contains "no", "yesterday" contains "yes".
  if (lower.includes('yes')) return 'yes';
  if (STARTS_WITH_NO.test(lower.trimStart())) return 'no';
  if (PAPER_NEGATIVE_PHRASES.some((phrase) => lower.includes(phrase))) return 'no';
  if (lower.includes('no')) return 'yes';
  return null;
}
