/** One whole-word occurrence of a listed name in a text: `text.slice(start, end)` is the name as written. */
export interface NameOccurrence {
  /** The name as spelled in the list (not as written in the text). */
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** Finds listed names in texts (see {@link nameMatcher}). */
export interface NameMatcher {
  /** The distinct, non-blank names of the list, in list order. */
  readonly names: readonly string[];
  readonly caseSensitive: boolean;
  /**
   * Every whole-word occurrence of every name, overlapping ones included (`PDF&URLTool` and the
   * `URLTool` inside it are both reported), ordered by start, longer first at the same start.
   * Choosing among overlaps is the caller's policy.
   */
  find(text: string): NameOccurrence[];
}

/**
 * Builds (or reuses) the matcher for a list of names. Names match literally (no pattern syntax,
 * so `PDF&URLTool` or `a.b (beta)` need no escaping) and as whole words: an occurrence may not
 * be preceded or followed by a character in `[A-Za-z0-9_]`. With `caseSensitive: false`, text and
 * names are compared after {@link foldCase}. Blank names are ignored, and a name equal to an
 * earlier one (after folding, when case is ignored) is dropped.
 *
 * Why not one combined regular expression: most candidate lists are shown for a single sample,
 * and V8 spends far longer compiling a fresh case-insensitive regex to native code (~0.3–0.7 ms
 * per list, measured) than this matcher spends on a whole answer. It groups names by their
 * first two characters and makes one pass over the text, comparing at each possible word start only
 * the names that begin with the two characters found there (a one-character name: the one). Preparing a list is cheap; the matcher
 * for an array is cached (for as long as the array lives) unless `reuse: false` — pass that for
 * lists used once, such as a sample's own candidate list, or every sample of a run would keep
 * its matcher alive for the whole run.
 */
export function nameMatcher(names: readonly string[], options: { readonly caseSensitive: boolean; readonly reuse?: boolean }): NameMatcher {
  if (options.reuse === false) return prepareNameMatcher(names, options.caseSensitive);
  const cache = options.caseSensitive ? caseSensitiveByArray : caseInsensitiveByArray;
  const known = cache.get(names);
  // A frozen array cannot have changed since its matcher was built: no need to compare it.
  if (known && (Object.isFrozen(names) || sameNames(known.snapshot, names))) return known.matcher;
  const matcher = prepareNameMatcher(names, options.caseSensitive);
  cache.set(names, { snapshot: [...names], matcher });
  return matcher;
}

// Weak, so lists dropped by the caller are collected. The snapshot guards against an array that
// was changed since its matcher was built.
interface CacheEntry {
  readonly snapshot: readonly string[];
  readonly matcher: NameMatcher;
}
const caseSensitiveByArray = new WeakMap<readonly string[], CacheEntry>();
const caseInsensitiveByArray = new WeakMap<readonly string[], CacheEntry>();

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

function prepareNameMatcher(rawNames: readonly string[], caseSensitive: boolean): NameMatcher {
  const fold = caseSensitive ? (text: string) => text : foldCase;
  const names: string[] = [];
  // Names grouped by their first two (folded) code units — one-unit names by their only one —,
  // longest first within a group, so that one pass over the text only compares the one or two
  // names that can start at each position. Keyed by number: no string is made per position.
  const byFirstUnits = new Map<number, Entry[]>();
  const oneUnit = new Map<number, Entry>();
  const seen = new Set<string>();
  for (const name of rawNames) {
    const key = fold(name);
    if (name.trim() === '' || seen.has(key)) continue;
    seen.add(key);
    names.push(name);
    if (key.length === 1) {
      oneUnit.set(key.charCodeAt(0), { name, key });
      continue;
    }
    const units = pairOf(key.charCodeAt(0), key.charCodeAt(1));
    const group = byFirstUnits.get(units) ?? [];
    group.push({ name, key });
    byFirstUnits.set(units, group);
  }
  for (const group of byFirstUnits.values()) group.sort((a, b) => b.key.length - a.key.length);

  function find(text: string): NameOccurrence[] {
    const haystack = fold(text);
    const found: NameOccurrence[] = [];
    const length = haystack.length;
    // Whether the previous unit is a word character: a whole-word occurrence cannot start after one.
    let afterWordChar = false;
    let unit = haystack.charCodeAt(0);
    for (let start = 0; start < length; start += 1) {
      const next = haystack.charCodeAt(start + 1); // NaN past the end
      if (!afterWordChar) {
        const group = byFirstUnits.get(pairOf(unit, next));
        if (group !== undefined) {
          for (const { name, key } of group) {
            const end = start + key.length;
            // Boundaries are read from the original text: folding keeps positions (see foldCase).
            if (end <= length && haystack.startsWith(key, start) && !isWordCharAt(text, end)) found.push({ name, start, end });
          }
        }
        const single = oneUnit.size === 0 ? undefined : oneUnit.get(unit);
        if (single !== undefined && !isWordCharAt(text, start + 1)) found.push({ name: single.name, start, end: start + 1 });
      }
      afterWordChar = isWordCharAt(text, start);
      unit = next;
    }
    return found;
  }

  return { names, caseSensitive, find };
}

// A name of the list with its folded form (the name itself when case counts).
interface Entry {
  readonly name: string;
  readonly key: string;
}

/** Two UTF-16 code units as one number (a Map key that costs no string per position). */
const pairOf = (first: number, second: number): number => first * 65536 + second;

/**
 * A "word character" for the whole-word rule: `[A-Za-z0-9_]`. ASCII on purpose (tool names are
 * ASCII identifiers), and `_` counts, so that `Translate` is not found inside
 * `MixerBox_Translate_AI_language_tutor`. Outside the text counts as not a word character.
 */
function isWordCharAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index); // NaN outside the text: every test below is false
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * Lowercases without changing the length or positions of the text, so that an index found in the
 * folded text is the same index in the original. ASCII text uses `toLowerCase` directly; other
 * text is lowercased one code point at a time (no context rules such as Greek final sigma), and a
 * character whose lowercase has another length (`İ` → `i̇`) is kept as it is.
 */
export function foldCase(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  let folded = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    folded += lower.length === char.length ? lower : char;
  }
  return folded;
}
