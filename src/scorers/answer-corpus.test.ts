// A hand-written corpus of realistic model answers to MetaTool questions, with the decision each
// reading must give. Every expected decision below was worked out by hand from the written rules
// (doc comments of yes-no.ts, tool-selection.ts, tool-selection-paper.ts, written-as-name.ts and
// docs/metatool.md "Reading answers"), not by running the code. Rule references:
//   paper awareness  P1–P4   (yes-no.ts parseYesNoPaper)
//   strict awareness S-aw    (leading yes/no after decoration and an answer label)
//   paper selection  PS      (lowercase substrings of the shown names; "none" substring)
//   strict selection R1–R7   (tool-selection.ts), with R2 (a) name-only line, (b) set off by a
//                             pair of marks, (c) list capital, exact, mid-sentence.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseYesNoPaper, parseYesNoStrict, type PaperYesNo, type YesNo } from './yes-no.js';
import { parseToolSelectionPaper } from './tool-selection-paper.js';
import { parseToolSelection } from './tool-selection.js';

// ---------------------------------------------------------------------------------------------
// Awareness: "does this query need a tool?"
// ---------------------------------------------------------------------------------------------

type AwarenessCase = readonly [text: string, paper: PaperYesNo, strict: YesNo];

function checkAwareness(cases: readonly AwarenessCase[]): void {
  const failures: string[] = [];
  for (const [text, paper, strict] of cases) {
    const gotPaper = parseYesNoPaper(text);
    const gotStrict = parseYesNoStrict(text);
    if (gotPaper !== paper) failures.push(`paper ${JSON.stringify(text)}: expected ${paper}, got ${gotPaper}`);
    if (gotStrict !== strict) failures.push(`strict ${JSON.stringify(text)}: expected ${String(strict)}, got ${String(gotStrict)}`);
  }
  assert.deepEqual(failures, [], failures.join('\n'));
}

const AWARENESS_SHORT: readonly AwarenessCase[] = [
  ['Yes', 'yes', 'yes'],
  ['Yes.', 'yes', 'yes'],
  ['Yes!', 'yes', 'yes'],
  ['yes', 'yes', 'yes'],
  ['YES', 'yes', 'yes'],
  // P1 quirk: "no" present, "yes" absent, none of the five negative phrases → yes.
  ['No', 'yes', 'no'],
  ['No.', 'yes', 'no'],
  ['NO', 'yes', 'no'],
  ['No tool is needed.', 'yes', 'no'],
  ['no, i dont need any tool', 'yes', 'no'], // "dont need" is not "not need to use"
  // S-aw: "Not", "Nope", "Nothing" are other words ("No" followed by a letter).
  ['Not needed.', 'yes', null],
  ['Nope, no tool needed.', 'yes', null],
  ['Maybe.', 'manual', null], // P4: no "no", no "yes", no positive phrase
  ['Sure, a tool is needed.', 'manual', null],
];

const AWARENESS_DECORATED: readonly AwarenessCase[] = [
  ['**Yes**', 'yes', 'yes'],
  ['"Yes"', 'yes', 'yes'],
  ['`no`', 'yes', 'no'], // P1 quirk; S-aw strips the backtick
  ['“Yes” — a tool is needed.', 'yes', 'yes'],
  ['Answer: No', 'yes', 'no'],
  ['Answer - yes', 'yes', 'yes'],
  ['Final answer: Yes', 'yes', 'yes'],
  ['Final Answer: **No**', 'yes', 'no'],
  ['#### No', 'yes', 'no'],
  ['> No, this can be answered without any tool.', 'yes', 'no'],
  // S-aw: a list bullet "-" is not decoration, "A:" is not an answer label.
  ['- yes', 'yes', null],
  ['A: Yes', 'yes', null],
  // S-aw: the leading word must be exactly yes/no.
  ["Yesterday's weather needs a lookup, so a tool is required.", 'yes', null], // P2: "yes" inside "Yesterday"
  ['No-one needs a tool to add two numbers.', 'yes', null], // hyphen joins another word
  ['Nothing in the question requires a tool.', 'yes', null], // P1: "nothing" contains "no"
  ['Noted. Yes, a tool is needed.', 'manual', null], // P2 blocked by "no" (in "Noted"); no P3 phrase
];

const AWARENESS_LONG: readonly AwarenessCase[] = [
  ['No, I do not need to use a tool for this.', 'no', 'no'],
  ['Yes, I need to use a tool to get the current weather in Paris.', 'yes', 'yes'],
  // P1: no negative phrase ("don't think a tool is necessary" is not "not think it is necessary").
  ["No, I don't think a tool is necessary; I can answer from general knowledge.", 'yes', 'no'],
  ['No, it does not seem necessary to use a tool.', 'no', 'no'],
  ['No. I do not think I need to use any tool; this is simple arithmetic.', 'no', 'no'],
  ['No, it is not necessary to use a tool; the answer is common knowledge.', 'no', 'no'],
  ['YES, A TOOL IS NEEDED TO CHECK TODAY\'S NEWS.', 'yes', 'yes'],
  ['NO, THIS IS GENERAL KNOWLEDGE.', 'yes', 'no'],
  // Multi-line markdown: no "no" anywhere ("Reasoning", "Bitcoin", "minute"), no blocker → P2 yes.
  ['**Answer:** Yes\n\nReasoning:\n- The user asks for the current price of Bitcoin.\n- Prices change every minute, so I need to use a tool.', 'yes', 'yes'],
  // P2 blocked ("cannot", "know" contain "no"); no P3 phrase → manual.
  ["Yes\n\nThe question asks about tomorrow's forecast, which I cannot know without a weather tool.", 'manual', 'yes'],
  ['No\n\nThe user only wants a synonym for "happy", which I know. I do not need to use any tool.', 'no', 'no'],
  // The verdict comes last: strict reads only a leading verdict.
  ['Let me think. The query is about converting 5 miles to kilometres — that is simple math, so no tool is needed. Final answer: No.', 'yes', null],
  // P2 blocked by "not" (and "no" inside it); no P3 phrase → manual.
  ['Yes, it is not possible to answer without real-time data.', 'manual', 'yes'],
  ['Yes. I would need to use a flight-search tool for live prices.', 'yes', 'yes'],
  ['Yes, I would need access to real-time data, which I do not have.', 'yes', 'yes'], // P3 "would need access"
  ['Yes, I will need to use the web search tool, since I do not know today\'s date.', 'yes', 'yes'], // P3
  ['Yes, it may be necessary to use a calendar tool; I don’t know your schedule.', 'yes', 'yes'], // P3 after blocked P2
];

const AWARENESS_HEDGED: readonly AwarenessCase[] = [
  // P2 blocked by the typographic "don’t"; no P3 phrase → manual.
  ['Yes, I don’t have access to live exchange rates, so a tool is needed.', 'manual', 'yes'],
  // The straight apostrophe is not a blocker → P2 yes.
  ["Yes, I don't have access to live exchange rates, so a tool is needed.", 'yes', 'yes'],
  ["I think it is necessary to use a tool here, because the question asks for today's stock price.", 'yes', null], // P3
  ['There is no need for a tool.', 'yes', null], // P1 quirk
  ['I know the answer already: Paris is the capital of France.', 'yes', null], // P1: "know"
  ["I'm not sure. It might be necessary to use a search tool.", 'yes', null], // P1 ("not" contains "no")
  ["I'm not sure.", 'yes', null], // P1 quirk
  ['Honestly, I cannot tell.', 'yes', null], // P1: "cannot" contains "no"
  ['Probably yes.', 'yes', null],
  ['I think yes, a tool would help.', 'yes', null],
  ['I may need to access an up-to-date database for this.', 'yes', null], // P3 "may need to access"
  ['It would be beneficial to use a tool here.', 'yes', null], // P3
  ['Tools would be necessary to fetch live scores.', 'yes', null], // P3
  // No "no" (don’t has "on"), no "yes"; "i think it is necessary" is not a substring → P4 manual.
  ['I don’t think it is necessary.', 'manual', null],
  ['I do not think it is necessary to use a tool.', 'no', null], // P1 "not think it is necessary"
];

const AWARENESS_KOREAN_EMPTY: readonly AwarenessCase[] = [
  ['', 'manual', null],
  ['   \n\t ', 'manual', null],
  ['네, 도구가 필요합니다.', 'manual', null],
  ['아니요, 도구는 필요하지 않습니다.', 'manual', null],
  ['Yes, 도구가 필요합니다.', 'yes', 'yes'],
  ['Yes입니다.', 'yes', null], // S-aw: "Yes" followed by a letter (입)
  ['네(Yes)', 'yes', null],
];

describe('answer corpus: awareness (paper and strict readings)', () => {
  it('short answers', () => checkAwareness(AWARENESS_SHORT));
  it('decorated answers: markdown, quotes, labels, words starting with yes/no', () => checkAwareness(AWARENESS_DECORATED));
  it('long and multi-line answers', () => checkAwareness(AWARENESS_LONG));
  it('hedged answers and the paper phrase lists', () => checkAwareness(AWARENESS_HEDGED));
  it('Korean, empty and whitespace-only answers', () => checkAwareness(AWARENESS_KOREAN_EMPTY));
});

// ---------------------------------------------------------------------------------------------
// Tool selection
// ---------------------------------------------------------------------------------------------

// Two shown lists of real ToolE names and the catalogue (the union), so that names of one list
// are off-list (hallucinated) names when the other is shown.
const A: readonly string[] = ['ABCmouse', 'search', 'NewsTool', 'WeatherTool', 'Now', 'PDF&URLTool', 'URLTool', 'calculator', 'Zapier', 'local'];
const B: readonly string[] = ['speak', 'form', 'Review', 'Chess', 'FinanceTool', 'MapTool', 'hdbcarpark', 'web_scraper', 'Checkers', 'Discount'];
const CATALOGUE: readonly string[] = [...A, ...B];

type PaperExpect = { kind: 'none' } | { kind: 'tools'; tools: string[] } | { kind: 'manual'; found: string[] };
type StrictExpect = { kind: 'none' } | { kind: 'tools'; tools: string[]; hallucinated: string[] } | { kind: 'no-verdict'; found: string[] };

const P = {
  none: { kind: 'none' } as PaperExpect,
  tools: (...tools: string[]): PaperExpect => ({ kind: 'tools', tools }),
  manual: (...found: string[]): PaperExpect => ({ kind: 'manual', found }),
};
const S = {
  none: { kind: 'none' } as StrictExpect,
  tools: (tools: string[], hallucinated: string[] = []): StrictExpect => ({ kind: 'tools', tools, hallucinated }),
  // The order of `found` in a strict no-verdict is not specified by the rules: compared as a set.
  noVerdict: (...found: string[]): StrictExpect => ({ kind: 'no-verdict', found: [...found].sort() }),
};

interface SelectionCase {
  readonly text: string;
  readonly shown: readonly string[];
  readonly max: 1 | 2;
  readonly paper: PaperExpect;
  readonly strict: StrictExpect;
}

const c = (text: string, shown: readonly string[], max: 1 | 2, paper: PaperExpect, strict: StrictExpect): SelectionCase => ({ text, shown, max, paper, strict });

function checkSelection(cases: readonly SelectionCase[]): void {
  const failures: string[] = [];
  for (const { text, shown, max, paper, strict } of cases) {
    const p = parseToolSelectionPaper(text, { candidates: shown, maxSelections: max });
    const gotPaper: PaperExpect = p.kind === 'none' ? { kind: 'none' } : p.kind === 'tools' ? { kind: 'tools', tools: [...p.tools] } : { kind: 'manual', found: [...p.found] };
    const s = parseToolSelection(text, { candidates: shown, catalogue: CATALOGUE, maxSelections: max });
    const gotStrict: StrictExpect =
      s.kind === 'none' ? { kind: 'none' } : s.kind === 'tools' ? { kind: 'tools', tools: [...s.tools], hallucinated: [...s.hallucinated] } : { kind: 'no-verdict', found: [...s.found].sort() };
    const where = `${JSON.stringify(text)} (shown ${shown === A ? 'A' : 'B'}, max ${max})`;
    if (JSON.stringify(gotPaper) !== JSON.stringify(paper)) failures.push(`paper ${where}: expected ${JSON.stringify(paper)}, got ${JSON.stringify(gotPaper)}`);
    if (JSON.stringify(gotStrict) !== JSON.stringify(strict)) failures.push(`strict ${where}: expected ${JSON.stringify(strict)}, got ${JSON.stringify(gotStrict)}`);
  }
  assert.deepEqual(failures, [], failures.join('\n'));
}

const SELECTION_PLAIN_NAMES: readonly SelectionCase[] = [
  c('ABCmouse', A, 1, P.tools('ABCmouse'), S.tools(['ABCmouse'])),
  c('WeatherTool', A, 1, P.tools('WeatherTool'), S.tools(['WeatherTool'])),
  c('weathertool', A, 1, P.tools('WeatherTool'), S.tools(['WeatherTool'])),
  c('WEATHERTOOL.', A, 1, P.tools('WeatherTool'), S.tools(['WeatherTool'])),
  c('ABCmouse!', A, 1, P.tools('ABCmouse'), S.tools(['ABCmouse'])),
  c('Tool:ABCmouse', A, 1, P.tools('ABCmouse'), S.tools(['ABCmouse'])),
  c('"ABCmouse"', A, 1, P.tools('ABCmouse'), S.tools(['ABCmouse'])),
  c('**Zapier**', A, 1, P.tools('Zapier'), S.tools(['Zapier'])),
  c('zapier', A, 1, P.tools('Zapier'), S.tools(['Zapier'])),
  c('Use the Zapier integration for this.', A, 1, P.tools('Zapier'), S.tools(['Zapier'])),
  c('The best tool is NewsTool.', A, 1, P.tools('NewsTool'), S.tools(['NewsTool'])),
  c('Selected tool: WeatherTool', A, 1, P.tools('WeatherTool'), S.tools(['WeatherTool'])),
  c("I'm not entirely sure, but WeatherTool might be the best choice.", A, 1, P.tools('WeatherTool'), S.tools(['WeatherTool'])),
  c("I think WeatherTool, but I'm not certain.", A, 1, P.tools('WeatherTool'), S.tools(['WeatherTool'])),
  c('FINANCETOOL', B, 1, P.tools('FinanceTool'), S.tools(['FinanceTool'])),
  c('web_scraper', B, 1, P.tools('web_scraper'), S.tools(['web_scraper'])),
  c("I'd use MapTool's directions feature.", B, 1, P.tools('MapTool'), S.tools(['MapTool'])), // "'" is not a word character
  c('(hdbcarpark)', B, 1, P.tools('hdbcarpark'), S.tools(['hdbcarpark'])),
];

const SELECTION_ORDINARY_WORDS: readonly SelectionCase[] = [
  // PS finds "search" as a substring; R2: prose "search" is not written as a name.
  c('I would use ABCmouse to search for this.', A, 1, P.manual('ABCmouse', 'search'), S.tools(['ABCmouse'])),
  c('I WOULD USE ABCMOUSE TO SEARCH FOR THIS.', A, 1, P.manual('ABCmouse', 'search'), S.tools(['ABCmouse'])),
  // R2 (a): a line holding only the name.
  c('search', A, 1, P.tools('search'), S.tools(['search'])),
  c('Search', A, 1, P.tools('search'), S.tools(['search'])),
  c('SEARCH', A, 1, P.tools('search'), S.tools(['search'])),
  c('search.', A, 1, P.tools('search'), S.tools(['search'])),
  c('Answer:\nsearch', A, 1, P.tools('search'), S.tools(['search'])),
  c('Tools – search', A, 1, P.tools('search'), S.tools(['search'])), // label "Tools" + en dash
  c('✅ search', A, 1, P.tools('search'), S.tools(['search'])), // R2 (a): the emoji is a symbol
  c('`search`', A, 1, P.tools('search'), S.tools(['search'])),
  c('The tool is ‘search’.', A, 1, P.tools('search'), S.tools(['search'])), // R2 (b)
  // R1: "_" is a word character, so "_search_" holds no whole-word name.
  c('_search_', A, 1, P.tools('search'), S.noVerdict()),
  c('I would search the web for the latest headlines.', A, 1, P.tools('search'), S.noVerdict()),
  c('Perhaps search?', A, 1, P.tools('search'), S.noVerdict()), // R2 (a) fails on "Perhaps"
  // R2 (b): parentheses are not one of the pairs of marks; (a) fails; (c) lowercase.
  c('I would use a tool (search) for this.', A, 1, P.tools('search'), S.noVerdict()),
  // R2 (b): an unpaired quote does not set the name off.
  c('The tool is "search.', A, 1, P.tools('search'), S.noVerdict()),
  c('You can compute this with a calculator.', A, 1, P.tools('calculator'), S.noVerdict()),
  c('The calculator tool.', A, 1, P.tools('calculator'), S.noVerdict()),
  c('Calculator', A, 1, P.tools('calculator'), S.tools(['calculator'])), // (a); spelled as in the list
  c('1. calculator', A, 1, P.tools('calculator'), S.tools(['calculator'])),
  c('I\'d go with "local" here.', A, 1, P.tools('local'), S.tools(['local'])),
  // R2 (c) only helps names the list spells with a capital; (d) a shown name right after "use", then the end.
  c("I'd use local.", A, 1, P.tools('local'), S.tools(['local'])),
  c("I'd use `local`.", A, 1, P.tools('local'), S.tools(['local'])),
  c('The tool is «local».', A, 1, P.tools('local'), S.tools(['local'])),
  c('• local', A, 1, P.tools('local'), S.tools(['local'])),
  c('Recommended tool — local', A, 1, P.tools('local'), S.tools(['local'])),
  c('Tool name: local', A, 1, P.tools('local'), S.tools(['local'])),
  c('Final answer: search', A, 1, P.tools('search'), S.tools(['search'])),
  c('Answer - search', A, 1, P.tools('search'), S.tools(['search'])),
  c('> search', A, 1, P.tools('search'), S.tools(['search'])),
  c('# local', A, 1, P.tools('local'), S.tools(['local'])),
  c('1) local', A, 1, P.tools('local'), S.tools(['local'])),
  c('The answer: search', A, 1, P.tools('search'), S.noVerdict()), // "The answer" is not a label
  c('Chosen tool: Chess', B, 1, P.tools('Chess'), S.tools(['Chess'])),
  // Off-list ordinary names: counted where written as names, and then hallucinations.
  c('Answer: form', A, 1, P.none, S.tools(['form'], ['form'])),
  c('I would review the article with NewsTool.', A, 1, P.tools('NewsTool'), S.tools(['NewsTool'])),
  c('I need the local weather, so WeatherTool.', A, 1, P.manual('WeatherTool', 'local'), S.tools(['WeatherTool'])),
  // PS: "research" contains "search"; R1: not a whole word.
  c('This requires some research on local events; the best fit is NewsTool.', A, 1, P.manual('search', 'NewsTool', 'local'), S.tools(['NewsTool'])),
  c('I recommend NewsTool. It can search for local news articles.', A, 1, P.manual('search', 'NewsTool', 'local'), S.tools(['NewsTool'])),
  // List B: "form" hides in "information" (PS), not a whole word (R1).
  c('I would use FinanceTool to look up the stock information.', B, 1, P.manual('form', 'FinanceTool'), S.tools(['FinanceTool'])),
  c('form', B, 1, P.tools('form'), S.tools(['form'])),
  c("'form'", B, 1, P.tools('form'), S.tools(['form'])),
  c('**form**', B, 1, P.tools('form'), S.tools(['form'])),
  c('You should fill out the registration form yourself.', B, 1, P.tools('form'), S.noVerdict()),
  c('speak', B, 1, P.tools('speak'), S.tools(['speak'])),
  c('“speak”', B, 1, P.tools('speak'), S.tools(['speak'])),
  c('I would use the speaker mode.', B, 1, P.tools('speak'), S.noVerdict()),
  c('I would speak to a financial advisor, or use FinanceTool.', B, 1, P.manual('speak', 'FinanceTool'), S.tools(['FinanceTool'])),
  c('Answer: Checkers', B, 1, P.tools('Checkers'), S.tools(['Checkers'])),
  c('Discount', B, 1, P.tools('Discount'), S.tools(['Discount'])),
  // R2 (c): lowercase "discount" is prose; "Discount" exact and mid-sentence is a name.
  c("There is a 20% discount on this item, so I'd use Discount.", B, 1, P.tools('Discount'), S.tools(['Discount'])),
  // Catalogue name "search" (off-list for B) is prose; "discount" lowercase prose.
  c('I would search online for a discount code.', B, 1, P.tools('Discount'), S.noVerdict()),
];

// R2 (d): a shown candidate's own name in a choosing position (after a verb of choosing, "the best
// choice is", a "Tool:" label) and followed by the clause's end or what it is for, is the choice.
const SELECTION_CHOOSING_POSITION: readonly SelectionCase[] = [
  c('The best choice is calculator.', A, 1, P.tools('calculator'), S.tools(['calculator'])),
  c('I would use calculator to search for this.', A, 1, P.manual('search', 'calculator'), S.tools(['calculator'])), // "search" follows "to": prose
  c('I recommend search for this query.', A, 1, P.tools('search'), S.tools(['search'])),
  c('I would pick "local" because it knows the area.', A, 1, P.manual('Now', 'local'), S.tools(['local'])), // (b) and (d); PS finds "now" in "knows"
  c('Tool: search, since the query asks for facts.', A, 1, P.tools('search'), S.tools(['search'])), // (a) fails: more than names on the line
  c('The best option is the calculator tool.', A, 1, P.tools('calculator'), S.tools(['calculator'])),
  c('I would select form.', B, 1, P.tools('form'), S.tools(['form'])),
  c('Chosen: speak', B, 1, P.tools('speak'), S.noVerdict()), // "Chosen:" is neither a label of (a) nor a choosing lead ("chosen" then ":")
  // Followed by a noun, the word is prose even right after "use".
  c('You could use search engines to find this.', A, 1, P.tools('search'), S.noVerdict()),
  c('I would use local time zones here.', A, 1, P.tools('local'), S.noVerdict()),
  // Off-list ordinary words never count by (d): only a shown candidate is chosen this way.
  c('I would use search to find it.', B, 1, P.none, S.noVerdict()),
  // Not a choosing position: after "with a", "to".
  c('You can compute this with a calculator.', A, 1, P.tools('calculator'), S.noVerdict()),
];

const SELECTION_CAPITALISED: readonly SelectionCase[] = [
  // R2 (c): "Now" at the start of the text is a sentence start; PS: "now" substring.
  c('Now, the best tool is NewsTool.', A, 1, P.manual('NewsTool', 'Now'), S.tools(['NewsTool'])),
  c('I would use Now for this.', A, 1, P.tools('Now'), S.tools(['Now'])),
  c('Use NOW.', A, 1, P.tools('Now'), S.tools(['Now'])), // (c) needs the exact spelling "Now" and (a) fails on "Use", but (d): a shown name right after "use", then the sentence ends
  c('NOW', A, 1, P.tools('Now'), S.tools(['Now'])), // (a)
  c('*Now*', A, 1, P.tools('Now'), S.tools(['Now'])),
  c('The answer is **Now**.', A, 1, P.tools('Now'), S.tools(['Now'])),
  c('Choice: Now', A, 1, P.tools('Now'), S.tools(['Now'])),
  c("I'd use a tool (Now) for this.", A, 1, P.tools('Now'), S.tools(['Now'])), // (c): "(" is skipped, then "l"
  c('Which tool? Now.', A, 1, P.tools('Now'), S.noVerdict()), // (c): after "?" is a sentence start
  // (c) also counts an off-list capitalised name in mid-sentence: Review (list B) is a second name.
  c('Read the Review section, then use NewsTool.', A, 1, P.tools('NewsTool'), S.noVerdict('Review', 'NewsTool')),
  c('To get the headlines right now, I would use NewsTool.', A, 1, P.manual('NewsTool', 'Now'), S.tools(['NewsTool'])),
  c('Right now, WeatherTool.', A, 1, P.manual('WeatherTool', 'Now'), S.tools(['WeatherTool'])),
  // PS: "know"/"knows" contain "now"; R1: not whole words.
  c("I don't know which tool would be best.", A, 1, P.tools('Now'), S.noVerdict()),
  c('I know ABCmouse is designed for this.', A, 1, P.manual('ABCmouse', 'Now'), S.tools(['ABCmouse'])),
  c('The best choice is WeatherTool because it knows the forecast.', A, 1, P.manual('WeatherTool', 'Now'), S.tools(['WeatherTool'])),
  // R2 (c): "Now" at a line start is a sentence start.
  c('ABCmouse is best.\nNow, let me explain why: it teaches reading to young children.', A, 1, P.manual('ABCmouse', 'Now'), S.tools(['ABCmouse'])),
  c('Zapier! Now I can automate the e-mails.', A, 1, P.manual('Now', 'Zapier'), S.tools(['Zapier'])), // after "!"
  // R2 (c): after ":" is mid-sentence, so "Now" counts → two names (R6).
  c('Use Zapier: Now is not needed here.', A, 1, P.manual('Now', 'Zapier'), S.noVerdict('Zapier', 'Now')),
  c('Review', B, 1, P.tools('Review'), S.tools(['Review'])),
  c('review', B, 1, P.tools('Review'), S.tools(['Review'])), // (a), spelled as in the list
  c('Review the options first; the right tool is MapTool.', B, 1, P.manual('Review', 'MapTool'), S.tools(['MapTool'])),
  // "reviews": not a whole word (R1); "Review," mid-sentence (c).
  c('I suggest Review, because it summarises product reviews.', B, 1, P.tools('Review'), S.tools(['Review'])),
  c("I'd go with the Review tool to read what customers say.", B, 1, P.tools('Review'), S.tools(['Review'])),
  c("Let's play chess! I would use Chess.", B, 1, P.tools('Chess'), S.tools(['Chess'])),
  c('Chess is the right tool.', B, 1, P.tools('Chess'), S.noVerdict()), // sentence start
  c('The right tool is Chess.', B, 1, P.tools('Chess'), S.tools(['Chess'])),
  // Off-list "Now" (list A) while B is shown.
  c('Now', B, 1, P.none, S.tools(['Now'], ['Now'])),
  c("I'd use MapTool. Now, let's plan the route.", B, 1, P.tools('MapTool'), S.tools(['MapTool'])),
  c('I would use MapTool and Now for this.', B, 1, P.tools('MapTool'), S.noVerdict('MapTool', 'Now')),
];

const SELECTION_KOREAN: readonly SelectionCase[] = [
  c('ABCmouse를 사용하겠습니다.', A, 1, P.tools('ABCmouse'), S.tools(['ABCmouse'])), // 를 is not [A-Za-z0-9_]
  c('search를 사용하겠습니다.', A, 1, P.tools('search'), S.noVerdict()), // (a) fails on Korean words
  c('저는 Now를 사용하겠습니다.', A, 1, P.tools('Now'), S.tools(['Now'])), // (c): after "는 "
  c('Now를 사용합니다.', A, 1, P.tools('Now'), S.noVerdict()), // (c): text start
  c('네, WeatherTool이 적합합니다.', A, 1, P.tools('WeatherTool'), S.tools(['WeatherTool'])),
  c('해당 도구가 없으므로 None입니다.', A, 1, P.none, S.none),
  c('적합한 도구가 없습니다.', A, 1, P.none, S.noVerdict()),
  c('저는 Chess를 추천합니다.', B, 1, P.tools('Chess'), S.tools(['Chess'])),
  c('MapTool로 길을 찾아보겠습니다.', B, 1, P.tools('MapTool'), S.tools(['MapTool'])),
  c('FinanceTool과 MapTool을 사용하겠습니다.', B, 2, P.tools('FinanceTool', 'MapTool'), S.tools(['FinanceTool', 'MapTool'])),
];

const SELECTION_NONE_AND_EMPTY: readonly SelectionCase[] = [
  c('None', A, 1, P.none, S.none),
  c('NONE', A, 1, P.none, S.none),
  c('Answer: None', A, 1, P.none, S.none),
  c('Tool: None', A, 1, P.none, S.none),
  c('None of them.', A, 1, P.none, S.none),
  c("None of these tools can help, so I won't use any of them.", A, 1, P.none, S.none),
  c("I'm not sure any tool fits. None.", A, 1, P.none, S.none),
  c("Sorry, I can't determine which tool to use.", A, 1, P.none, S.noVerdict()), // PS: no name reads None
  c('Nonetheless, I cannot pick one.', A, 1, P.none, S.noVerdict()), // R4: "Nonetheless" is not the word none
  c('', A, 1, P.none, S.noVerdict()),
  c('   \n\t  ', A, 1, P.none, S.noVerdict()),
  // R2 (a): calculator's line holds "None", which is not a name → calculator is not counted; R4 → none.
  c('calculator or None', A, 1, P.manual('calculator'), S.none),
];

const SELECTION_NAME_AND_NONE: readonly SelectionCase[] = [
  // R5: "None" at a sentence start is prose → the name stands. PS: "none" present → manual.
  c('ABCmouse. None of the others fit.', A, 1, P.manual('ABCmouse'), S.tools(['ABCmouse'])),
  c('ABCmouse or None', A, 1, P.manual('ABCmouse'), S.noVerdict('ABCmouse')), // R5 via (a)
  c('ABCmouse\nNone', A, 1, P.manual('ABCmouse'), S.noVerdict('ABCmouse')), // R5 via (a)
  // R5 via (c): "(" is skipped, then "e" of ABCmouse → "None" is mid-sentence.
  c('Answer: ABCmouse (None of the others apply.)', A, 1, P.manual('ABCmouse'), S.noVerdict('ABCmouse')),
  c('I would use ABCmouse; none of the other tools fit.', A, 1, P.manual('ABCmouse'), S.tools(['ABCmouse'])), // lowercase prose
  c('The request is vague; nonetheless, WeatherTool is the closest match.', A, 1, P.manual('WeatherTool'), S.tools(['WeatherTool'])), // PS: "none" in "nonetheless"
  c(
    "### Selected tool\n\n**WeatherTool**\n\nThe user wants tomorrow's forecast for Busan. WeatherTool provides forecasts, so it is the best match; none of the other tools handle weather.",
    A,
    1,
    P.manual('WeatherTool'),
    S.tools(['WeatherTool']),
  ),
  // Off-list names: PS does not look for them; strict counts them as hallucinations (R1, R7).
  c('None, except perhaps MapTool.', A, 1, P.none, S.tools(['MapTool'], ['MapTool'])), // "None" at text start is prose
  // R5 via (c): "None" after "search or " is capitalised mid-sentence (search itself is not counted: its line holds "None").
  c('ABCmouse\nsearch or None', A, 1, P.manual('ABCmouse', 'search'), S.noVerdict('ABCmouse')),
  // Multi: PS ignores "none"; R5 still applies.
  c('Zapier\nNone', A, 2, P.tools('Zapier'), S.noVerdict('Zapier')),
];

const SELECTION_SUBSTRINGS_AND_OFF_LIST: readonly SelectionCase[] = [
  c('I would use the NewsToolkit plugin.', A, 1, P.tools('NewsTool'), S.noVerdict()), // R1
  c('PDF&URLTool', A, 1, P.manual('PDF&URLTool', 'URLTool'), S.tools(['PDF&URLTool'])), // R3
  c('URLTool', A, 1, P.tools('URLTool'), S.tools(['URLTool'])),
  c("I'd pick PDF&URLTool, since the user shared a PDF link.", A, 1, P.manual('PDF&URLTool', 'URLTool'), S.tools(['PDF&URLTool'])),
  c('PDF & URLTool', A, 1, P.tools('URLTool'), S.tools(['URLTool'])), // the spaced form is not the name PDF&URLTool
  c("I'd use web_scraper_pro.", B, 1, P.tools('web_scraper'), S.noVerdict()), // "_" follows → not a whole word
  c('MapTool', A, 1, P.none, S.tools(['MapTool'], ['MapTool'])),
  c('hdbcarpark', A, 1, P.none, S.tools(['hdbcarpark'], ['hdbcarpark'])),
  c('Zapier (MapTool is not listed).', A, 1, P.tools('Zapier'), S.noVerdict('Zapier', 'MapTool')),
  c('ABCmouse', B, 1, P.none, S.tools(['ABCmouse'], ['ABCmouse'])),
  c('search', B, 1, P.none, S.tools(['search'], ['search'])), // off-list ordinary name on its own line: (a)
];

const SELECTION_TWO_NAMES_SINGLE: readonly SelectionCase[] = [
  c('ABCmouse or search', A, 1, P.manual('ABCmouse', 'search'), S.noVerdict('ABCmouse', 'search')), // (a) counts search
  c('search, local', A, 1, P.manual('search', 'local'), S.noVerdict('search', 'local')),
  c('Zapier and WeatherTool', A, 1, P.manual('WeatherTool', 'Zapier'), S.noVerdict('Zapier', 'WeatherTool')),
  c('NewsTool/WeatherTool', A, 1, P.manual('NewsTool', 'WeatherTool'), S.noVerdict('NewsTool', 'WeatherTool')),
  c('Possibly NewsTool, or maybe Zapier.', A, 1, P.manual('NewsTool', 'Zapier'), S.noVerdict('NewsTool', 'Zapier')),
  c('Checkers or Chess', B, 1, P.manual('Chess', 'Checkers'), S.noVerdict('Checkers', 'Chess')),
  c('The FinanceTool would work; alternatively MapTool.', B, 1, P.manual('FinanceTool', 'MapTool'), S.noVerdict('FinanceTool', 'MapTool')),
  c(
    'To answer this, I need a tool that reads web pages.\n\n- ABCmouse: educational games for children\n- URLTool: fetches and summarises a URL\n\nAnswer: URLTool',
    A,
    1,
    P.manual('ABCmouse', 'URLTool'),
    S.noVerdict('ABCmouse', 'URLTool'),
  ),
];

const SELECTION_MULTI: readonly SelectionCase[] = [
  c('Answer: search, local', A, 2, P.tools('search', 'local'), S.tools(['search', 'local'])),
  c('NewsTool and WeatherTool', A, 2, P.tools('NewsTool', 'WeatherTool'), S.tools(['NewsTool', 'WeatherTool'])),
  // PS lists in candidate order; strict in order of first mention.
  c('WeatherTool and NewsTool', A, 2, P.tools('NewsTool', 'WeatherTool'), S.tools(['WeatherTool', 'NewsTool'])),
  c('NewsTool/WeatherTool', A, 2, P.tools('NewsTool', 'WeatherTool'), S.tools(['NewsTool', 'WeatherTool'])),
  c('NewsTool, WeatherTool and Zapier', A, 2, P.manual('NewsTool', 'WeatherTool', 'Zapier'), S.noVerdict('NewsTool', 'WeatherTool', 'Zapier')),
  c('ABCmouse', A, 2, P.tools('ABCmouse'), S.tools(['ABCmouse'])),
  c('None', A, 2, P.tools(), S.none),
  c('', A, 2, P.tools(), S.noVerdict()),
  c('PDF&URLTool and Zapier', A, 2, P.manual('PDF&URLTool', 'URLTool', 'Zapier'), S.tools(['PDF&URLTool', 'Zapier'])),
  c('URLTool and PDF&URLTool', A, 2, P.tools('PDF&URLTool', 'URLTool'), S.tools(['URLTool', 'PDF&URLTool'])),
  c("I'd use WeatherTool and then MapTool to plan the route.", A, 2, P.tools('WeatherTool'), S.tools(['WeatherTool', 'MapTool'], ['MapTool'])),
  c('WeatherTool, MapTool', A, 2, P.tools('WeatherTool'), S.tools(['WeatherTool', 'MapTool'], ['MapTool'])),
  c(
    'Here are the tools I would use:\n\n1. **WeatherTool** – to get the forecast for Seoul.\n2. **NewsTool** – to find recent local news.\n\nBoth are needed to answer the question.',
    A,
    2,
    P.manual('NewsTool', 'WeatherTool', 'local'),
    S.tools(['WeatherTool', 'NewsTool']),
  ),
  c('- search\n- local', A, 2, P.tools('search', 'local'), S.tools(['search', 'local'])),
  c('Tools: search and local', A, 2, P.tools('search', 'local'), S.tools(['search', 'local'])),
  c('search or local', A, 2, P.tools('search', 'local'), S.tools(['search', 'local'])),
  c('- search\n- local\n- Zapier', A, 2, P.manual('search', 'Zapier', 'local'), S.noVerdict('search', 'local', 'Zapier')),
  c('I would combine ABCmouse with Zapier and Now.', A, 2, P.manual('ABCmouse', 'Now', 'Zapier'), S.noVerdict('ABCmouse', 'Zapier', 'Now')),
  c('First, search for the PDF with URLTool, then summarise it with PDF&URLTool.', A, 2, P.manual('search', 'PDF&URLTool', 'URLTool'), S.tools(['URLTool', 'PDF&URLTool'])),
  c('I would use Zapier and the calculator.', A, 2, P.tools('calculator', 'Zapier'), S.tools(['Zapier'])),
  c('MapTool and FinanceTool', B, 2, P.tools('FinanceTool', 'MapTool'), S.tools(['MapTool', 'FinanceTool'])),
  c('I need MapTool for directions and FinanceTool for currency information.', B, 2, P.manual('form', 'FinanceTool', 'MapTool'), S.tools(['MapTool', 'FinanceTool'])),
  c('**MapTool**, **Review**', B, 2, P.tools('Review', 'MapTool'), S.tools(['MapTool', 'Review'])),
  c('Tools: speak, Review, Chess', B, 2, P.manual('speak', 'Review', 'Chess'), S.noVerdict('speak', 'Review', 'Chess')),
  c('None', B, 2, P.tools(), S.none),
  c(
    '## Tools\n\n- **MapTool**: finds the nearest car park.\n- **hdbcarpark**: gives live availability for HDB car parks.\n\nI would use both to answer the question about parking in Singapore.',
    B,
    2,
    P.tools('MapTool', 'hdbcarpark'),
    S.tools(['MapTool', 'hdbcarpark']),
  ),
  // Hedged third name: "maybe" breaks (a) for speak → two counted names.
  c('MapTool, FinanceTool, and maybe speak', B, 2, P.manual('speak', 'FinanceTool', 'MapTool'), S.tools(['MapTool', 'FinanceTool'])),
];

// Found by this corpus and fixed in tool-selection.ts: rule 5 judges a "None" line against every
// name *found* in the answer (rule (a)), counted or not. On "None or search", "search" is found
// (though not counted: its line holds the word "None"), so the line holds only names and "or":
// "None" is written as an answer → no verdict. The code had tested the line against the counted
// names only, so the answer depended on word order ("search or None" was already a no verdict).
const SELECTION_NONE_LINE_WITH_UNCOUNTED_NAME: readonly SelectionCase[] = [
  c('ABCmouse\nNone or search', A, 1, P.manual('ABCmouse', 'search'), S.noVerdict('ABCmouse')),
  c('ABCmouse\nNone, local.', A, 1, P.manual('ABCmouse', 'local'), S.noVerdict('ABCmouse')),
];

const SELECTION_GROUPS = {
  'plain names, cases, punctuation and labels': SELECTION_PLAIN_NAMES,
  'ordinary-word names in prose and written as names': SELECTION_ORDINARY_WORDS,
  'capitalised names (Now, Review, Chess) at and after a sentence start': SELECTION_CAPITALISED,
  'an ordinary-word candidate in a choosing position': SELECTION_CHOOSING_POSITION,
  'Korean answers': SELECTION_KOREAN,
  'None, empty and whitespace-only answers': SELECTION_NONE_AND_EMPTY,
  'a name together with None': SELECTION_NAME_AND_NONE,
  'substrings of other words, PDF&URLTool vs URLTool, off-list names': SELECTION_SUBSTRINGS_AND_OFF_LIST,
  'two names in a single-tool task': SELECTION_TWO_NAMES_SINGLE,
  'multi-tool answers (two and three names)': SELECTION_MULTI,
  '"None" on a line with a found but uncounted name (rule 5 via rule (a))': SELECTION_NONE_LINE_WITH_UNCOUNTED_NAME,
};

describe('answer corpus: tool selection (paper and strict readings)', () => {
  for (const [title, cases] of Object.entries(SELECTION_GROUPS)) it(title, () => checkSelection(cases));
});

describe('answer corpus: size', () => {
  it('holds at least 110 answers', () => {
    const awareness = [AWARENESS_SHORT, AWARENESS_DECORATED, AWARENESS_LONG, AWARENESS_HEDGED, AWARENESS_KOREAN_EMPTY].flat().length;
    const selection = Object.values(SELECTION_GROUPS).flat().length;
    assert.ok(awareness + selection >= 110, `${awareness} awareness + ${selection} selection answers`);
  });
});
