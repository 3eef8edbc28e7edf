import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { metatoolFile, needsData } from '../testing/test-data.js';
import { isOrdinaryWord } from './ordinary-words.js';
import { parseToolSelection, selectionSet, type Selection } from './tool-selection.js';

const single = (text: string, candidates: readonly string[], catalogue?: readonly string[]): Selection =>
  parseToolSelection(text, { candidates, maxSelections: 1, ...(catalogue ? { catalogue } : {}) });
const tools = (names: string[], hallucinated: string[] = []): Selection => ({ kind: 'tools', tools: names, hallucinated });
const NO_NAME: Selection = { kind: 'no-verdict', reason: 'named no tool and did not answer None', found: [] };

describe('parseToolSelection: matching shown names', () => {
  const shown = ['NewsTool', 'WeatherTool', 'speak'];

  it('matches case-insensitively and returns the name as listed', () => {
    assert.deepEqual(single('I would use newstool for this.', shown), tools(['NewsTool']));
    assert.deepEqual(single('WEATHERTOOL', shown), tools(['WeatherTool']));
    assert.deepEqual(single('Speak', shown), tools(['speak']));
  });

  it('matches whole words only: no letter, digit or underscore on either side', () => {
    assert.deepEqual(single('NewsToolkit is what I need', shown), NO_NAME);
    assert.deepEqual(single('Ask the speaker', shown), NO_NAME);
    assert.deepEqual(single('my_NewsTool', shown), NO_NAME);
    assert.deepEqual(single('NewsTool2', shown), NO_NAME);
    assert.deepEqual(single('unspeakable', shown), NO_NAME);
    // Punctuation, markdown and quotes around a name are fine.
    assert.deepEqual(single('**NewsTool**', shown), tools(['NewsTool']));
    assert.deepEqual(single('"speak".', shown), tools(['speak']));
    assert.deepEqual(single('(WeatherTool)', shown), tools(['WeatherTool']));
    assert.deepEqual(single('Tool: NewsTool\n', shown), tools(['NewsTool']));
  });

  it('counts a name mentioned twice (in any case) once', () => {
    assert.deepEqual(single('NewsTool. I repeat: newstool, NEWSTOOL.', shown), tools(['NewsTool']));
  });

  it('escapes names with regex metacharacters and spaces', () => {
    const odd = ['PDF&URLTool', 'Finance Staff', 'a.b', 'C++ (beta)', 'x-y', 'what?'];
    assert.deepEqual(single('Use pdf&urltool.', odd), tools(['PDF&URLTool']));
    assert.deepEqual(single('finance staff', odd), tools(['Finance Staff']));
    assert.deepEqual(single('Finance  Staff', odd), NO_NAME); // two spaces: a different text
    assert.deepEqual(single('a.b', odd), tools(['a.b']));
    assert.deepEqual(single('axb', odd), NO_NAME); // "." is literal, not "any character"
    assert.deepEqual(single('C++ (beta)', odd), tools(['C++ (beta)']));
    assert.deepEqual(single('x-y', odd), tools(['x-y']));
    assert.deepEqual(single('what? ', odd), tools(['what?']));
    assert.deepEqual(single('wha', odd), NO_NAME); // "?" is literal, not "optional t"
  });
});

describe('parseToolSelection: longest name first', () => {
  it('a long name does not also select a shorter name inside it', () => {
    // "_" is a word character, so Translate is not a whole word inside the long name anyway.
    const shown = ['Translate', 'MixerBox_Translate_AI_language_tutor'];
    assert.deepEqual(single('MixerBox_Translate_AI_language_tutor', shown), tools(['MixerBox_Translate_AI_language_tutor']));
    assert.deepEqual(single('Translate', shown), tools(['Translate']));
  });

  it('a shorter name overlapping a longer one is dropped, even where it is a whole word', () => {
    // "&" is not a word character: URLTool alone is a whole word inside "PDF&URLTool".
    const shown = ['URLTool', 'PDF&URLTool'];
    assert.deepEqual(single('I choose PDF&URLTool', shown), tools(['PDF&URLTool']));
    assert.deepEqual(single('I choose URLTool', shown), tools(['URLTool']));
  });

  it('a shorter name that is a prefix of a longer one is dropped at the same place', () => {
    const shown = ['FinTool', 'FinTool Staff'];
    assert.deepEqual(single('FinTool Staff', shown), tools(['FinTool Staff']));
    assert.deepEqual(single('FinTool staffing', shown), tools(['FinTool']));
  });

  it('prefers the longest name over the leftmost one, then keeps shorter names that no longer overlap', () => {
    // Text "A B C D E F". Longest first: "C D E F" (7 chars) is kept; "A B C" (5) overlaps it at
    // "C" and is dropped; "A B" (3) starts where "A B C" does but does not overlap "C D E F": kept.
    const shown = ['A B', 'A B C', 'C D E F'];
    assert.deepEqual(
      parseToolSelection('A B C D E F', { candidates: shown, maxSelections: 2 }),
      tools(['A B', 'C D E F']), // order of first mention: "A B" starts at 0, "C D E F" at 4
    );
  });
});

describe('parseToolSelection: none, too many, nothing', () => {
  const shown = ['NewsTool', 'WeatherTool', 'MapTool'];

  it('answers None when no name is found and the word none appears', () => {
    assert.deepEqual(single('None', shown), { kind: 'none' });
    assert.deepEqual(single('none of these tools fits.', shown), { kind: 'none' });
    assert.deepEqual(single('**NONE**', shown), { kind: 'none' });
  });

  it('does not read "none" inside another word', () => {
    assert.deepEqual(single('nonetheless I cannot say', shown), NO_NAME);
    assert.deepEqual(single('None_of_them', shown), NO_NAME);
  });

  it('a named tool wins over the word none', () => {
    assert.deepEqual(single('None of the others, only MapTool.', shown), tools(['MapTool']));
  });

  it('gives no verdict for empty text or text naming nothing', () => {
    assert.deepEqual(single('', shown), NO_NAME);
    assert.deepEqual(single('I am not sure which one.', shown), NO_NAME);
  });

  it('gives no verdict when more names are found than may be chosen, listing them in order', () => {
    assert.deepEqual(single('WeatherTool or NewsTool', shown), {
      kind: 'no-verdict',
      reason: 'named 2 tools where at most 1 may be chosen',
      found: ['WeatherTool', 'NewsTool'],
    });
    assert.deepEqual(parseToolSelection('MapTool, NewsTool and WeatherTool', { candidates: shown, maxSelections: 2 }), {
      kind: 'no-verdict',
      reason: 'named 3 tools where at most 2 may be chosen',
      found: ['MapTool', 'NewsTool', 'WeatherTool'],
    });
  });

  it('accepts up to maxSelections names, in order of first mention', () => {
    assert.deepEqual(parseToolSelection('WeatherTool, then MapTool, then WeatherTool again', { candidates: shown, maxSelections: 2 }), tools(['WeatherTool', 'MapTool']));
  });

  it('rejects a maxSelections that is not a positive integer', () => {
    assert.throws(() => parseToolSelection('x', { candidates: shown, maxSelections: 0 }), RangeError);
    assert.throws(() => parseToolSelection('x', { candidates: shown, maxSelections: 1.5 }), RangeError);
  });
});

describe('parseToolSelection: off-list (hallucinated) names', () => {
  const shown = ['NewsTool', 'WeatherTool'];
  const catalogue = ['NewsTool', 'WeatherTool', 'MapTool', 'Now', 'search', 'URLTool', 'PDF&URLTool'];

  it('selects an off-list catalogue name and lists it as hallucinated', () => {
    assert.deepEqual(single('MapTool', shown, catalogue), tools(['MapTool'], ['MapTool']));
  });

  it('counts an off-list name that is an ordinary word only where it is written as a name', () => {
    // "Now" opens a sentence and "search"/"Search" is prose: not names, so not hallucinations.
    assert.deepEqual(single('Now I would pick WeatherTool.', shown, catalogue), tools(['WeatherTool']));
    assert.deepEqual(single('now I would pick WeatherTool. Search is not needed.', shown, catalogue), tools(['WeatherTool']));
    assert.deepEqual(single('I would use WeatherTool to search the forecast.', shown, catalogue), tools(['WeatherTool']));
    // Capitalised as the catalogue spells it, in mid-sentence: the tool Now.
    assert.deepEqual(single('I would pick Now or WeatherTool.', shown, catalogue), {
      kind: 'no-verdict',
      reason: 'named 2 tools where at most 1 may be chosen',
      found: ['Now', 'WeatherTool'],
    });
    assert.deepEqual(single('I would use `search`.', shown, catalogue), tools(['search'], ['search']));
    // A line of names after a label, including one copied from a template with "(s)".
    assert.deepEqual(single('Selected tool(s): search', shown, catalogue), tools(['search'], ['search']));
    assert.deepEqual(single('- Tool name: search.', shown, catalogue), tools(['search'], ['search']));
  });

  it('matches an off-list name that is not an ordinary word in any case: it is written as a tool name', () => {
    assert.deepEqual(single('maptool', shown, catalogue), tools(['MapTool'], ['MapTool']));
  });

  it('mixes shown and off-list names in order of first mention', () => {
    assert.deepEqual(
      parseToolSelection('MapTool and newstool', { candidates: shown, catalogue, maxSelections: 2 }),
      tools(['MapTool', 'NewsTool'], ['MapTool']),
    );
  });

  it('does not flag a shown name as hallucinated when the catalogue also lists it', () => {
    assert.deepEqual(single('NewsTool', shown, catalogue), tools(['NewsTool']));
    // A catalogue entry differing from a shown name only in case is the shown name.
    assert.deepEqual(single('NEWSTOOL', shown, ['NEWSTOOL']), tools(['NewsTool']));
  });

  it('reads shown names the same whether the catalogue lists them (its cached matcher finds them) or not (a matcher of their own)', () => {
    const candidates = ['newsTool', 'PDF', 'PDF&URLTool', 'search', 'Now', 'MapTool'];
    const texts = ['I would use NEWSTOOL.', 'PDF&URLTool', 'PDF', 'Answer: search', 'I would pick Now.', 'Now I would pick MapTool', 'search the news', 'pdf and maptool', 'None'];
    // The catalogue spells two of them in another case, lists some of the others, and not PDF.
    const catalogues = [[], ['NewsTool', 'PDF&URLTool', 'SEARCH'], ['PDF&URLTool'], candidates.map((name) => name.toUpperCase())];
    for (const text of texts) {
      const alone = parseToolSelection(text, { candidates, maxSelections: 2 });
      for (const catalogue of catalogues) assert.deepEqual(parseToolSelection(text, { candidates, catalogue, maxSelections: 2 }), alone, `${text} with [${catalogue.join(', ')}]`);
    }
    // Spelled as shown, and longest first across a listed and an unlisted candidate at the same start.
    assert.deepEqual(single('NEWSTOOL', candidates, ['NewsTool']), tools(['newsTool']));
    assert.deepEqual(single('PDF&URLTool', ['PDF', 'PDF&URLTool'], ['PDF&URLTool']), tools(['PDF&URLTool']));
    assert.deepEqual(single('PDF&URLTool', ['PDF&URLTool', 'PDF'], ['PDF']), tools(['PDF&URLTool']));
  });

  it('applies longest-first across shown and off-list names', () => {
    // Shown PDF&URLTool covers the off-list URLTool inside it.
    assert.deepEqual(single('PDF&URLTool', ['PDF&URLTool'], catalogue), tools(['PDF&URLTool']));
    // Off-list PDF&URLTool covers the shown URLTool inside it: the model named the off-list tool.
    assert.deepEqual(single('PDF&URLTool', ['URLTool'], catalogue), tools(['PDF&URLTool'], ['PDF&URLTool']));
  });

  it('an off-list name alone is still subject to maxSelections', () => {
    assert.deepEqual(single('MapTool or search', shown, catalogue), {
      kind: 'no-verdict',
      reason: 'named 2 tools where at most 1 may be chosen',
      found: ['MapTool', 'search'],
    });
  });
});

describe('selectionSet', () => {
  it('is empty for none, the names for tools, null for no verdict', () => {
    assert.deepEqual(selectionSet({ kind: 'none' }), new Set());
    assert.deepEqual(selectionSet(tools(['B', 'A'], ['A'])), new Set(['A', 'B']));
    assert.equal(selectionSet(NO_NAME), null);
  });
});

describe('parseToolSelection on the real MetaTool catalogue', () => {
  const file = metatoolFile('plugin_des.json');
  const skip = needsData('metatool');

  it('every tool name, shown among all 199, selects exactly itself when written as a name', { skip }, () => {
    const catalogue = Object.keys(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>);
    assert.equal(catalogue.length, 199);
    for (const name of catalogue) {
      assert.deepEqual(single(`I choose "${name}".`, catalogue), tools([name]), name);
      assert.deepEqual(single(name, catalogue), tools([name]), name);
      // In prose, only the names that are not ordinary words are read as names…
      const prose = single(`I thought about ${name.toLowerCase()} for a while.`, catalogue);
      assert.deepEqual(prose, isOrdinaryWord(name) ? NO_NAME : tools([name]), name);
      // …but a shown name in a choosing position is chosen, ordinary word or not (rule (d)).
      assert.deepEqual(single(`I choose ${name.toLowerCase()} here.`, catalogue), tools([name]), name);
    }
  });

  it('the catalogue names that are ordinary English words are these fifteen', { skip }, () => {
    const catalogue = Object.keys(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>);
    assert.deepEqual(
      catalogue.filter(isOrdinaryWord).sort(),
      ['Checkers', 'Chess', 'Discount', 'Glowing', 'Now', 'Review', 'calculator', 'dart', 'form', 'local', 'placid', 'rephrase', 'search', 'speak', 'universal'],
    );
  });

  it('every tool name, when none is shown, is an off-list (hallucinated) selection of itself', { skip }, () => {
    const catalogue = Object.keys(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>);
    for (const name of catalogue) {
      assert.deepEqual(single(`**${name}**`, [], catalogue), tools([name], [name]), name);
    }
  });
});
