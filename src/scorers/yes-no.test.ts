import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PAPER_NEGATIVE_PHRASES, PAPER_POSITIVE_PHRASES, PAPER_YES_BLOCKERS, parseYesNoPaper, parseYesNoStrict, type PaperYesNo, type YesNo } from './yes-no.js';

function expectAll(parse: (text: string) => YesNo, cases: ReadonlyArray<readonly [string, YesNo]>): void {
  for (const [text, expected] of cases) {
    assert.equal(parse(text), expected, `input ${JSON.stringify(text)}`);
  }
}

describe('parseYesNoStrict', () => {
  it('reads a bare leading yes or no in any case', () => {
    expectAll(parseYesNoStrict, [
      ['yes', 'yes'],
      ['Yes', 'yes'],
      ['YES', 'yes'],
      ['no', 'no'],
      ['No', 'no'],
      ['NO', 'no'],
    ]);
  });

  it('accepts punctuation, whitespace or the end after the word', () => {
    expectAll(parseYesNoStrict, [
      ['Yes.', 'yes'],
      ['No,', 'no'],
      ['No, the model can answer this itself.', 'no'],
      ['Yes! It needs live weather data.', 'yes'],
      ['Yes\nBecause the query asks for today\'s prices.', 'yes'],
      ['No:', 'no'],
      ['Yes/', 'yes'],
    ]);
  });

  it('skips leading whitespace, quotes and markdown decoration', () => {
    expectAll(parseYesNoStrict, [
      ['   \n\tYes', 'yes'],
      ['"No."', 'no'],
      ["'yes'", 'yes'],
      ['“Yes”', 'yes'],
      ['‘No’', 'no'],
      ['`yes`', 'yes'],
      ['**Yes**', 'yes'],
      ['__No__', 'no'],
      ['_yes_', 'yes'],
      ['# Yes', 'yes'],
      ['> No, not needed', 'no'],
      ['> **"Yes"**', 'yes'],
    ]);
  });

  it('skips a leading answer label in any case, also between decorations', () => {
    expectAll(parseYesNoStrict, [
      ['Answer: Yes', 'yes'],
      ['answer:no', 'no'],
      ['ANSWER - yes', 'yes'],
      ['Answer — No.', 'no'],
      ['**Answer:** No', 'no'],
      ['Final answer: yes', 'yes'],
      ['"Answer: No"', 'no'],
    ]);
  });

  it('rejects words that merely start with yes or no', () => {
    expectAll(parseYesNoStrict, [
      ['Yesterday it rained.', null],
      ['Nope', null],
      ['Not really', null],
      ['Noted.', null],
      ['None of them', null],
      ['yes2', null],
      ['No-one needs that', null],
      ["No's and yes's", null],
    ]);
  });

  it('gives no verdict when the answer does not start with yes or no', () => {
    expectAll(parseYesNoStrict, [
      ['', null],
      ['   ', null],
      ['I think yes.', null],
      ['The answer is no.', null],
      ['Maybe', null],
      ['Answer yes', null], // a label needs its ":" or "-"
      ['- yes', null], // a list bullet is not in the decoration set
      ['**', null],
    ]);
  });
});

describe('parseYesNoPaper (the authors\' script, MetaTool issue #10)', () => {
  const paper = (cases: readonly (readonly [string, PaperYesNo])[]): void => {
    for (const [text, expected] of cases) assert.equal(parseYesNoPaper(text), expected, JSON.stringify(text));
  };

  it('holds the published phrase lists verbatim, frozen', () => {
    assert.deepEqual([...PAPER_NEGATIVE_PHRASES], ['not seem necessary', 'not think it is necessary', 'not need to use', 'not necessary to use', 'do not think i need to use']);
    assert.equal(PAPER_POSITIVE_PHRASES.length, 15);
    assert.deepEqual([...PAPER_YES_BLOCKERS], ['no', 'not', 'don\u2019t']);
    for (const list of [PAPER_NEGATIVE_PHRASES, PAPER_POSITIVE_PHRASES, PAPER_YES_BLOCKERS]) assert.ok(Object.isFrozen(list));
  });

  it('rule 1: "no" without "yes" reads no only with one of the five phrases, else yes (the quirk)', () => {
    paper([
      ['No, I do not need to use a tool.', 'no'], // "not need to use"
      ['It does not seem necessary.', 'no'],
      ['I do not think it is necessary.', 'no'],
      ['No. I do not think I need to use any tool.', 'no'],
      ['Using a tool is not necessary to use here.', 'no'],
      ['No', 'yes'], // the quirk: a bare "no"
      ['No.', 'yes'],
      ['NO', 'yes'],
      ['There is no need for a tool.', 'yes'], // "no need" is not one of the five
      ['I know the answer.', 'yes'], // "no" inside "know"
      ['A tool is not necessary.', 'yes'], // "not necessary" without "to use"
    ]);
  });

  it('rule 2: "yes" without "no", "not" or "don’t" reads yes', () => {
    paper([
      ['Yes', 'yes'],
      ['YES.', 'yes'],
      ['Yes, it needs real-time data.', 'yes'],
      ['yesterday\'s weather', 'yes'], // "yes" inside "yesterday"
      ["Yes, I don't have live data.", 'yes'], // a straight apostrophe is not the published "don’t"
    ]);
  });

  it('rule 3: with "yes" and a blocker, only one of the fifteen phrases reads yes', () => {
    paper([
      ['Yes, I need to use a tool; it is not in my training data.', 'yes'],
      ['Yes \u2014 I don\u2019t know today\u2019s prices, so I would need access to a tool.', 'yes'],
      ['Yes, I might need to use a search engine, not my memory.', 'yes'],
      ['Yes or no? Hard to say.', 'manual'],
      ['Yes. I don\u2019t know.', 'manual'], // blocker "don’t", no phrase (and "know" has "no")
      ['Yes, although not strictly.', 'manual'],
    ]);
  });

  it('rule 4: nothing decides → manual analysis', () => {
    paper([
      ['', 'manual'],
      ['Maybe.', 'manual'],
      ['A tool would help.', 'manual'],
      ['\uB124, \uB3C4\uAD6C\uAC00 \uD544\uC694\uD569\uB2C8\uB2E4.', 'manual'], // Korean "yes, a tool is needed"
      ['I would need to use a calculator.', 'yes'], // but a positive phrase alone decides (rule 3)
    ]);
  });
});
