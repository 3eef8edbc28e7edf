import { foldCase, nameMatcher, type NameMatcher, type NameOccurrence } from './name-matcher.js';
import { allClassified, classifyNames, isOrdinaryWord } from './ordinary-words.js';
import { isInChoosingPosition, isWrittenAsName, type Span } from './written-as-name.js';

/** How a free-text answer selects tools from a shown list. */
export type Selection =
  /** The answer abstains ("None"). */
  | { readonly kind: 'none' }
  /** The answer names these tools (shown candidates and/or off-list names), in order of first mention. */
  | { readonly kind: 'tools'; readonly tools: readonly string[]; readonly hallucinated: readonly string[] }
  /** Cannot tell (too many names, or no name and no "None"). */
  | { readonly kind: 'no-verdict'; readonly reason: string; readonly found: readonly string[] };

export interface SelectionOptions {
  /** The tool names shown to the model. */
  readonly candidates: readonly string[];
  /** Every known tool name; names from here that were not shown count as hallucinations. */
  readonly catalogue?: readonly string[];
  /** 1 for single-tool tasks, 2 for multi-tool tasks. */
  readonly maxSelections: number;
}

// An occurrence, and whether its name was shown (a candidate) or not (an off-list name).
interface Mention extends NameOccurrence {
  readonly shown: boolean;
}

// One shared empty list, so that the matcher cache (keyed by array) also serves calls without a catalogue.
const NO_NAMES: readonly string[] = Object.freeze([]);

const NONE_WORD = /(?<![A-Za-z0-9_])none(?![A-Za-z0-9_])/gi;

/**
 * Reads which tool(s) a free-text answer selects from the list it was shown: assay's own, strict
 * reading of MetaTool tool selection (the default `--parser strict`; docs/metatool.md compares it
 * with the paper's rules, which {@link parseToolSelectionPaper} reproduces).
 *
 * 1. Names — the shown `candidates` and the other `catalogue` names — are found ignoring case, as
 *    whole words: an occurrence may not touch a character in `[A-Za-z0-9_]` on either side
 *    (`NewsTool` is not in `NewsToolkit`). Names may hold regex metacharacters and spaces
 *    (`PDF&URLTool`); they match literally.
 * 2. A name that is also an ordinary English word ({@link isOrdinaryWord}: `search`, `form`,
 *    `local`, `speak`, `Now`, `Review`) counts only where it is written as a name
 *    ({@link isWrittenAsName}): (a) on a line that holds only names (after a bullet or an
 *    `Answer:`/`Tool:` label), (b) set off by quotes, backticks or markdown emphasis, or (c) with
 *    the capital the list spells it with, in mid-sentence, or — for a shown candidate — (d) in a
 *    choosing position ({@link isInChoosingPosition}: "The best choice is dart.", "I would use
 *    calculator to search for this."). So "I would use ABCmouse to search for this." names
 *    ABCmouse only. Other names (`ABCmouse`, `web_scraper`, `Zapier`) always count.
 * 3. Longest name first: text taken by a longer name cannot also match a shorter one that overlaps
 *    it (`PDF&URLTool` does not also select `URLTool`).
 * 4. A counted name that was not shown is still what the model chose: it is part of `tools` and
 *    also listed in `hallucinated`.
 * 5. No name: the whole word `none` (any case) → `{ kind: 'none' }`; otherwise no verdict.
 *    Names and also "None" written as an answer (rules (a)–(c) above, with `None` capitalised) →
 *    no verdict; a lowercase "none of the others" beside a name is prose, and the name stands.
 * 6. More distinct names than `maxSelections` → no verdict (the names are in `found`).
 * 7. Otherwise `{ kind: 'tools' }` with the distinct names in order of first mention, spelled as
 *    in the lists.
 *
 * Cost: one pass of the catalogue's cached matcher over the answer, which finds the shown names
 * too (see `mentionsOf`): ~27,000 instructions per MetaTool answer against 10 candidates and the
 * 199-name catalogue once warm, ~100,000 on a first pass over 10,000 answers (callgrind,
 * 2026-11-28; docs/benchmarks.md), where a matcher prepared per sample for the candidates cost
 * ~16–34 µs and ~10 KB (see `name-matcher.ts` for the method).
 *
 * @throws RangeError when `maxSelections` is not a positive integer (a programming error).
 */
export function parseToolSelection(text: string, options: SelectionOptions): Selection {
  const { candidates, catalogue = NO_NAMES, maxSelections } = options;
  if (!Number.isInteger(maxSelections) || maxSelections < 1) {
    throw new RangeError(`parseToolSelection: maxSelections must be a positive integer, got ${maxSelections}`);
  }

  const found = mentionsOf(text, candidates, catalogue);
  // Names met for the first time: classify the whole lists at once (one read of the word lists).
  if (!allClassified(namesOf(found))) classifyNames([...candidates, ...catalogue]);
  const mentions = found.filter((m) => !isOrdinaryWord(m.name) || isWrittenAsName(text, m, m.name, found) || (m.shown && isInChoosingPosition(text, m)));

  // Most answers name one tool once: nothing to order or to drop then.
  const chosen = mentions.length < 2 ? mentions : longestFirstWithoutOverlap(mentions).sort((a, b) => a.start - b.start);
  const tools = chosen.length < 2 ? namesOf(chosen) : [...new Set(namesOf(chosen))];
  const offList = new Set(namesOf(chosen.filter((mention) => !mention.shown)));

  const nones = noneWords(text);
  if (tools.length === 0) {
    return nones.length > 0 ? { kind: 'none' } : { kind: 'no-verdict', reason: 'named no tool and did not answer None', found: [] };
  }
  // As for names, a line of names is judged against every name found, counted or not ("None or search").
  if (nones.some((none) => isWrittenAsName(text, none, 'None', [...found, none]))) {
    return { kind: 'no-verdict', reason: `named ${tools.join(', ')} and also answered None`, found: tools };
  }
  if (tools.length > maxSelections) {
    return { kind: 'no-verdict', reason: `named ${tools.length} tools where at most ${maxSelections} may be chosen`, found: tools };
  }
  return { kind: 'tools', tools, hallucinated: tools.filter((name) => offList.has(name)) };
}

/**
 * Every occurrence of a shown or off-list name in the text: the shown ones first, then the
 * off-list ones, each in the order a matcher finds them (by start, longer first at the same start).
 * A shown name is spelled as the candidate list spells it (its first spelling, ignoring case); an
 * off-list name as the catalogue does, and one that equals a shown name ignoring case is that shown
 * name. The catalogue's matcher (prepared once, cached by array) finds the shown names it lists
 * too: only a candidate the catalogue lacks needs a matcher of its own, prepared per answer (a
 * sample's list is shown once). Preparing one per sample for every candidate was half the cost of
 * scoring a MetaTool answer.
 */
function mentionsOf(text: string, candidates: readonly string[], catalogue: readonly string[]): Mention[] {
  const catalogueMatcher = nameMatcher(catalogue, { caseSensitive: false });
  const listed = catalogueKeys(catalogueMatcher);
  // The candidates' first spellings by folded name (two short lists: a sample shows ~10 names, and
  // a Map per answer cost more than the lookups); those the catalogue lacks are matched apart.
  const shownKeys: string[] = [];
  const shownNames: string[] = [];
  let unlisted: string[] | undefined;
  for (const name of candidates) {
    // A name spelled as the catalogue spells it has its folded form there already (and is not blank).
    let key = listed.get(name);
    const spelledAsListed = key !== undefined;
    if (key === undefined) {
      if (name.trim() === '') continue;
      key = foldCase(name);
    }
    if (shownKeys.includes(key)) continue;
    shownKeys.push(key);
    shownNames.push(name);
    if (!spelledAsListed && !listed.has(key)) (unlisted ??= []).push(name);
  }
  const shown: Mention[] = [];
  const offList: Mention[] = [];
  for (const occurrence of catalogueMatcher.find(text)) {
    const at = shownKeys.indexOf(listed.get(occurrence.name) as string);
    if (at === -1) offList.push({ name: occurrence.name, start: occurrence.start, end: occurrence.end, shown: false });
    else shown.push({ name: shownNames[at] as string, start: occurrence.start, end: occurrence.end, shown: true });
  }
  if (unlisted === undefined) return shown.length === 0 ? offList : offList.length === 0 ? shown : [...shown, ...offList];
  const own = nameMatcher(unlisted, { caseSensitive: false, reuse: false }).find(text).map(({ name, start, end }) => ({ name, start, end, shown: true }));
  return [...mergeByPosition(shown, own), ...offList];
}

// The catalogue's names by their folded form, and the folded form of each name, made once per matcher.
const keysByMatcher = new WeakMap<NameMatcher, Map<string, string>>();

/** Each name of the matcher's list mapped to its folded form, and each folded form to itself (a lookup of either gives the key). */
function catalogueKeys(matcher: NameMatcher): Map<string, string> {
  let keys = keysByMatcher.get(matcher);
  if (keys === undefined) {
    keys = new Map();
    for (const name of matcher.names) {
      const key = foldCase(name);
      keys.set(key, key);
      keys.set(name, key);
    }
    keysByMatcher.set(matcher, keys);
  }
  return keys;
}

/** Two lists of occurrences, each by start (longer first at the same start), merged in that order. */
function mergeByPosition(a: readonly Mention[], b: readonly Mention[]): Mention[] {
  const merged: Mention[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Mention;
    const y = b[j] as Mention;
    if (x.start < y.start || (x.start === y.start && x.end >= y.end)) {
      merged.push(x);
      i++;
    } else {
      merged.push(y);
      j++;
    }
  }
  while (i < a.length) merged.push(a[i++] as Mention);
  while (j < b.length) merged.push(b[j++] as Mention);
  return merged;
}

/** The names of occurrences, in their order. */
function namesOf(occurrences: readonly NameOccurrence[]): string[] {
  const names: string[] = [];
  for (const occurrence of occurrences) names.push(occurrence.name);
  return names;
}

// Whether the text holds "none" at all, any case: a cheaper test than finding whole words.
const NONE_ANYWHERE = /none/i;

/** Every whole-word "none" of the text, any case. */
function noneWords(text: string): Span[] {
  if (!NONE_ANYWHERE.test(text)) return [];
  return [...text.matchAll(NONE_WORD)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

/**
 * Keeps mentions longest first, dropping any that overlaps one already kept; between equally long
 * ones, the earlier first. (Two lists never find the same span: an off-list name that matches
 * exactly where a shown name matches ignoring case is that shown name, and was dropped.)
 */
function longestFirstWithoutOverlap(mentions: readonly Mention[]): Mention[] {
  const ordered = [...mentions].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Mention[] = [];
  for (const mention of ordered) {
    if (!kept.some((other) => mention.start < other.end && other.start < mention.end)) kept.push(mention);
  }
  return kept;
}

/**
 * The set of names a selection picks: empty for `none`, `null` for a no verdict (nothing to
 * compare). Useful for multi-tool scoring, where the answer is compared with the gold tools as a set.
 */
export function selectionSet(selection: Selection): ReadonlySet<string> | null {
  switch (selection.kind) {
    case 'none':
      return new Set();
    case 'tools':
      return new Set(selection.tools);
    case 'no-verdict':
      return null;
  }
}
