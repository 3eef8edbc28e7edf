/** A judge's verdict read from its answer: pass (true), fail (false) or no verdict (null), and why. */
export interface ParsedVerdict {
  readonly verdict: boolean | null;
  readonly reason: string;
}

/**
 * The words a verdict line may be, after normalizing. Upstream FunctionChat-Bench
 * (`src/formatter.py`, `convert_eval_key`) accepts "pass" and "fail" and, for pass only, the
 * Korean 패스, 패쓰, 통과 and 합격; it has no Korean word for fail, so neither do we (a judge that
 * writes 실패 or 불합격 gets no verdict and is retried, rather than a guessed fail). Upstream matches
 * these as substrings of the last two lines, so "passed", "pass or fail" and even 불합격 ("failed",
 * containing 합격) read as pass; here the line must be exactly one word.
 */
export const PASS_WORDS: readonly string[] = Object.freeze(['pass', '패스', '패쓰', '통과', '합격']);
export const FAIL_WORDS: readonly string[] = Object.freeze(['fail']);

const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;
// Decoration a judge puts around its final word: quotes (straight, curly, guillemets, CJK
// brackets), backticks and markdown emphasis (* and _; not ~, since ~~pass~~ strikes it out).
const SURROUNDING = /^[\s"'`“”‘’«»「」『』*_]+|[\s"'`“”‘’«»「」『』*_]+$/gu;
const TRAILING_PUNCTUATION = /[.!?,;:。！？、…]+$/u;

/** The line reduced to the word it states: decoration and trailing punctuation off, lower case. */
function normalize(line: string): string {
  let word = line;
  for (;;) {
    const next = word.replace(SURROUNDING, '').replace(TRAILING_PUNCTUATION, '');
    if (next === word) return word.toLowerCase();
    word = next;
  }
}

function verdictOf(word: string): boolean | null {
  if (PASS_WORDS.includes(word)) return true;
  if (FAIL_WORDS.includes(word)) return false;
  return null;
}

const word = (verdict: boolean): string => (verdict ? 'pass' : 'fail');

/** A line quoted in a reason, cut to keep reasons one short line (a judge may end on a paragraph). */
const MAX_QUOTED = 80;
const quote = (line: string): string => JSON.stringify(line.length > MAX_QUOTED ? `${line.slice(0, MAX_QUOTED - 1)}…` : line);

/**
 * Reads the verdict of a judge told to end with "pass" or "fail" on its own line (the
 * FunctionChat rubrics). Strict: the last non-empty line, once surrounding whitespace, quotes,
 * markdown emphasis and trailing punctuation are removed, must be exactly a pass or fail word in
 * any case (`**Pass**`, `"fail".` and `통과` are read; `passed`, `pass or fail`, `Final: pass` are
 * not). The rubrics also ask the judge to repeat its decision, so when the line before the last is
 * itself a verdict word that disagrees ("pass\nfail"), the judge contradicted itself: no verdict.
 *
 * When to use: judge answers in the text (non-JSON) mode. Anything unreadable is `null` with the
 * reason, for the caller to retry and then record as no verdict, never as fail.
 */
export function parsePassFail(text: string): ParsedVerdict {
  const lines = text.split(LINE_BREAK).filter((line) => line.trim() !== '');
  const last = lines.at(-1);
  if (last === undefined) return { verdict: null, reason: 'empty judge answer' };
  const verdict = verdictOf(normalize(last));
  if (verdict === null) return { verdict: null, reason: `last line ${quote(last.trim())} is not exactly pass or fail` };
  const previous = lines.at(-2);
  const before = previous === undefined ? null : verdictOf(normalize(previous));
  if (before !== null && before !== verdict) {
    return { verdict: null, reason: `the last two lines disagree: ${quote(previous?.trim() ?? '')} then ${quote(last.trim())}` };
  }
  return { verdict, reason: `${word(verdict)}: last line ${quote(last.trim())}` };
}
