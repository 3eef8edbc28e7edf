import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PAPER_NEGATIVE_PHRASES, parseYesNoPaper, parseYesNoStrict, type YesNo } from './yes-no.js';

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

describe('parseYesNoPaper', () => {
  it('exports the negative phrases the brief requires, as a frozen list', () => {
    const required = [
      'no need', 'not need', "don't need", 'do not need', "doesn't need", 'does not need', 'not necessary',
      'unnecessary', 'no external tool', 'without external tool', 'without the need', 'not require',
      "doesn't require", 'does not require', 'no.', 'no,', 'answer: no',
    ];
    for (const phrase of required) assert.ok(PAPER_NEGATIVE_PHRASES.includes(phrase), phrase);
    assert.ok(Object.isFrozen(PAPER_NEGATIVE_PHRASES));
  });

  it('rule 1: "yes" anywhere wins, even inside another word or beside a negative phrase', () => {
    expectAll(parseYesNoPaper, [
      ['Yes', 'yes'],
      ['I would say YES.', 'yes'],
      ['No need for tools... just kidding, yes.', 'yes'],
      ['No. Yes.', 'yes'],
      ['Yesterday is not necessary.', 'yes'], // "yes" inside "yesterday"
      ['eyes', 'yes'],
    ]);
  });

  it('rule 2: a listed negative phrase means no', () => {
    expectAll(parseYesNoPaper, [
      ['There is no need to use a tool here.', 'no'],
      ['I do not need any tool.', 'no'],
      ["The model doesn't need external help.", 'no'],
      ['Using a tool is not necessary.', 'no'],
      ['A tool is unnecessary for this.', 'no'],
      ['This can be solved with no external tool.', 'no'],
      ['It can be answered without external tools.', 'no'],
      ['It can be done without the need of a plugin.', 'no'],
      ['This does not require a tool.', 'no'],
      ["It doesn't require browsing.", 'no'],
      ['My answer: No', 'no'],
      ['I think no.', 'no'], // "no." in the middle
      ['Well, no, I can do it.', 'no'], // "no," in the middle
    ]);
  });

  it('rule 2: text that starts with the word "no" means no', () => {
    expectAll(parseYesNoPaper, [
      ['No', 'no'],
      ['no', 'no'],
      ['No I can answer that', 'no'],
      ['No\nThe question is general knowledge', 'no'],
      ['  No!', 'no'],
      ['No;', 'no'],
    ]);
  });

  it('rule 3 (the quirk): a "no" without "yes" or a negative phrase counts as yes', () => {
    expectAll(parseYesNoPaper, [
      ['I know the answer to this.', 'yes'], // "no" hidden in "know"
      ['Nothing to add', 'yes'], // starts with "no" but followed by a letter
      ['Nope', 'yes'],
      ['The answer is no', 'yes'], // "no" at the end: no "no." / "no," / "answer: no" phrase
      ['Economy questions', 'yes'], // "no" inside "economy"
    ]);
  });

  it('rule 4: neither "yes" nor "no" is no verdict', () => {
    expectAll(parseYesNoPaper, [
      ['', null],
      ['Maybe.', null],
      ['A tool would help.', null],
      ['N O', null],
    ]);
  });
});
