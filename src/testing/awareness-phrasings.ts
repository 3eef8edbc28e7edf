import type { Sample } from '../core/index.js';

/** One phrasing of a right awareness answer, with its reading worked out by hand under each rule set. */
export type Phrasing = readonly [answer: string, paper: 'yes' | 'no' | 'manual', strict: 'yes' | 'no' | null];

// A model that is always right, in nine usual phrasings of yes and nine of no. Beside each, the
// reading worked out by hand from the paper's rules (docs/metatool.md) and from assay's strict
// leading-word rule. Paper rules: (1) "no" and no "yes" → no with one of five phrases, else yes;
// (2) "yes" and none of "no"/"not"/"don’t" → yes; (3) one of fifteen phrases → yes; (4) manual.
export const YES_PHRASINGS: readonly Phrasing[] = [
  ['Yes', 'yes', 'yes'], // rule 2
  ['Yes.', 'yes', 'yes'], // rule 2
  ['Yes, I need to use a tool.', 'yes', 'yes'], // rule 2 (no "no"/"not")
  ['YES', 'yes', 'yes'], // rule 2
  ['**Yes** — this needs real-time information.', 'yes', 'yes'], // rule 2
  ['Answer: yes', 'yes', 'yes'], // rule 2
  ['I think it is necessary to use a tool here.', 'yes', null], // rule 3; strict: no leading yes/no
  ['Yes, because I don\u2019t know today\u2019s exchange rate.', 'manual', 'yes'], // rules 1–3 fail ("know" has "no", "don’t" blocks 2)
  ['An external tool is needed: yes.', 'yes', null], // rule 2; strict: not leading
];
export const NO_PHRASINGS: readonly Phrasing[] = [
  ['No', 'yes', 'no'], // rule 1, no phrase: the quirk
  ['No.', 'yes', 'no'],
  ['No, I do not need to use a tool.', 'no', 'no'], // "not need to use"
  ['NO', 'yes', 'no'],
  ['I do not think it is necessary to use a tool.', 'no', null], // "not think it is necessary"
  ['Answer: no', 'yes', 'no'],
  ['It does not seem necessary to use a tool.', 'no', null], // "not seem necessary"
  ['No \u2014 I can answer this from general knowledge.', 'yes', 'no'],
  ['No, I do not think I need to use any tool.', 'no', 'no'], // "do not think i need to use"
];

/** Which phrasing a sample gets: `k` indexes the phrasings of its label. */
export interface PhrasingChoice {
  readonly needsTool: boolean;
  readonly k: number;
}

/**
 * Gives each awareness sample (by id) the phrasing of its position among the samples of its label,
 * cycling through nine, so every phrasing is used about equally and the counts can be worked out.
 */
export function assignPhrasings(samples: readonly Sample[]): Map<string, PhrasingChoice> {
  const choices = new Map<string, PhrasingChoice>();
  const seen = { yes: 0, no: 0 };
  for (const sample of samples) {
    const needsTool = sample.metadata['needsTool'] === true;
    const k = (needsTool ? seen.yes++ : seen.no++) % 9;
    choices.set(sample.id, { needsTool, k });
  }
  return choices;
}

/** The answer text of a choice. */
export function phrasingText(choice: PhrasingChoice): string {
  return ((choice.needsTool ? YES_PHRASINGS : NO_PHRASINGS)[choice.k] as Phrasing)[0];
}

/**
 * The confusion counts the hand readings give ("needs a tool" positive): an independent tally of
 * what the reading under test must report. `undecided` is manual (paper) or no verdict (strict).
 */
export function tallyPhrasings(choices: ReadonlyMap<string, PhrasingChoice>, reading: 'paper' | 'strict') {
  let tp = 0, fn = 0, fp = 0, tn = 0, undecided = 0;
  for (const choice of choices.values()) {
    const phrasing = (choice.needsTool ? YES_PHRASINGS : NO_PHRASINGS)[choice.k] as Phrasing;
    const read = reading === 'paper' ? phrasing[1] : phrasing[2];
    if (read === 'manual' || read === null) undecided++;
    else if (choice.needsTool) read === 'yes' ? tp++ : fn++;
    else read === 'yes' ? fp++ : tn++;
  }
  return { tp, fn, fp, tn, undecided };
}
