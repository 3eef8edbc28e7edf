import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { user, type GenerateRequest } from '../../../core/index.js';
import { createBaselineProvider, type BaselineName } from '../../../models/providers/baseline/baseline-provider.js';
import { METATOOL_ANSWERERS } from './answerers.js';
import type { SelectQuestion, YesNoQuestion } from './questions.js';

// MetaTool's answerers as the `baseline:` models use them: through the generic provider, which
// labels each question's random generator (the behaviour a stored run's answers depend on).
const live = { signal: new AbortController().signal };

const ask = (hints: YesNoQuestion | SelectQuestion): GenerateRequest => ({
  messages: [user('this prompt text is never read by a baseline')],
  settings: {},
  hints,
});

const baseline = (name: BaselineName, seed: number | string) => createBaselineProvider({ name, seed, answerers: METATOOL_ANSWERERS });

async function answerOf(name: BaselineName, seed: number | string, hints: YesNoQuestion | SelectQuestion): Promise<string> {
  return (await baseline(name, seed).generate(ask(hints), live)).text;
}

const tenTools = Array.from({ length: 10 }, (_, i) => ({ name: `tool${i}`, description: `does thing number ${i}` }));
const yesNo = (query: string): YesNoQuestion => ({ kind: 'yes-no', query });
const select = (query: string, extra: Partial<SelectQuestion> = {}): SelectQuestion => ({
  kind: 'select',
  query,
  candidates: tenTools,
  maxSelections: 1,
  allowNone: true,
  ...extra,
});

describe('MetaTool baselines: answers pinned', () => {
  // Written down from the answerers as they were in models/ (before they moved here): a stored
  // run's random baseline answers must not change with the code's layout.
  it('random, seed 42: the same answers as ever', async () => {
    const answers = [];
    for (const q of [yesNo('What is the weather in Paris?'), yesNo('Write a poem'), select('Which tool does thing number 3?'), select('Which tools do thing 4 and thing 7?', { maxSelections: 2 }), select('Pick two', { maxSelections: 2, allowNone: false })]) {
      answers.push(await answerOf('random', 42, q));
    }
    assert.deepEqual(answers, ['no', 'no', 'tool2', 'None', 'tool3, tool6']);
    assert.equal(await answerOf('random', 'abc', select('Which tools do thing 4 and thing 7?', { maxSelections: 2 })), 'tool2, tool4');
  });

  it('both strategies answer both kinds, and the raw response keeps the answer and why', async () => {
    for (const name of ['random', 'lexical'] as const) {
      const result = await baseline(name, 1).generate(ask(yesNo('What is the latest news?')), live);
      assert.ok(result.text === 'yes' || result.text === 'no');
      assert.deepEqual(result.toolCalls, []);
      assert.deepEqual(result.finishReason, { unified: 'stop' });
      assert.deepEqual(result.usage, {});
      assert.deepEqual(result.warnings, []);
    }
    const lexical = await baseline('lexical', 1).generate(ask(yesNo('What is the latest news?')), live);
    assert.deepEqual(lexical.rawResponse, { baseline: 'lexical', answer: 'yes', matchedCues: ['latest', 'news'] });
    const random = await baseline('random', 1).generate(ask(select('q')), live);
    assert.deepEqual(random.rawResponse, { baseline: 'random', answer: random.text });
  });
});

describe('baseline:random', () => {
  it('gives the same answer to the same question, whatever the call order, instance or key order', async () => {
    const questions = Array.from({ length: 30 }, (_, i) => select(`question ${i}`, { maxSelections: 2 }));
    const provider = baseline('random', 42);
    const forward = await Promise.all(questions.map((q) => provider.generate(ask(q), live)));
    const other = baseline('random', 42);
    const backward = await Promise.all([...questions].reverse().map((q) => other.generate(ask(q), live)));
    assert.deepEqual(forward.map((r) => r.text), backward.reverse().map((r) => r.text));
    // Same content, keys in another order: same question, same answer.
    const reordered: SelectQuestion = { allowNone: true, maxSelections: 2, candidates: tenTools, query: 'question 0', kind: 'select' };
    assert.equal((await provider.generate(ask(reordered), live)).text, forward[0]?.text);
  });

  it('answers yes about half the time over many seeds', async () => {
    let yes = 0;
    for (let seed = 0; seed < 10_000; seed++) if ((await answerOf('random', seed, yesNo('Is it raining?'))) === 'yes') yes++;
    // Binomial(10000, 0.5): sd = 50, so ±300 is six standard deviations.
    assert.ok(yes > 4_700 && yes < 5_300, `yes ${yes} of 10000`);
  });

  it('picks each of 10 tools and None (11 options) between 5% and 15% of 10,000 draws', async () => {
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 10_000; seed++) {
      const text = await answerOf('random', seed, select('Which tool?'));
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
    assert.deepEqual([...counts.keys()].sort(), [...tenTools.map((t) => t.name), 'None'].sort());
    for (const [option, count] of counts) assert.ok(count >= 500 && count <= 1_500, `${option}: ${count}`);
  });

  it('never answers None when None is not allowed', async () => {
    for (let seed = 0; seed < 500; seed++) {
      const text = await answerOf('random', seed, select('Which tool?', { allowNone: false }));
      assert.ok(tenTools.some((t) => t.name === text), text);
    }
  });

  it('for two selections with None allowed: 0, 1 or 2 distinct tools, each about a third of the time', async () => {
    const bySize = [0, 0, 0];
    for (let seed = 0; seed < 10_000; seed++) {
      const text = await answerOf('random', seed, select('Which tools?', { maxSelections: 2 }));
      const names = text === 'None' ? [] : text.split(', ');
      assert.equal(new Set(names).size, names.length, `distinct: ${text}`);
      for (const n of names) assert.ok(tenTools.some((t) => t.name === n), n);
      bySize[names.length] = (bySize[names.length] ?? 0) + 1;
    }
    // Binomial(10000, 1/3): sd ≈ 47; the window 3000..3667 is about seven sd each side.
    for (const [size, count] of bySize.entries()) assert.ok(count >= 3_000 && count <= 3_667, `${size} tools: ${count}`);
  });

  it('for two selections without None: always two distinct tools, each tool about 2/10 of the time', async () => {
    const seen = new Map<string, number>();
    for (let seed = 0; seed < 5_000; seed++) {
      const names = (await answerOf('random', seed, select('Which tools?', { maxSelections: 2, allowNone: false }))).split(', ');
      assert.equal(names.length, 2);
      assert.notEqual(names[0], names[1]);
      for (const n of names) seen.set(n, (seen.get(n) ?? 0) + 1);
    }
    // Each tool is in a draw with probability 2/10: 1000 of 5000 expected, sd ≈ 28.
    for (const [name, count] of seen) assert.ok(count >= 850 && count <= 1_150, `${name}: ${count}`);
    assert.equal(seen.size, 10);
  });
});

describe('baseline:lexical', () => {
  const tools = [
    { name: 'weather_forecast', description: 'Get the weather forecast for any city.' },
    { name: 'FlightBooker', description: 'Search and book cheap flights between airports.' },
    { name: 'RecipeFinder', description: 'Find recipes by ingredient and cuisine.' },
    { name: 'StockTicker', description: '' },
  ];
  const lexical = (query: string, extra: Partial<SelectQuestion> = {}): Promise<string> =>
    answerOf('lexical', 0, { kind: 'select', query, candidates: tools, maxSelections: 1, allowNone: true, ...extra });

  it('picks the obviously matching candidate', async () => {
    assert.equal(await lexical('What will the weather be in Paris tomorrow?'), 'weather_forecast');
    assert.equal(await lexical('Please book me a flight to Rome'), 'FlightBooker');
    assert.equal(await lexical('Any good recipes with leeks?'), 'RecipeFinder');
  });

  it('matches words of a camelCase name', async () => {
    assert.equal(await lexical('show the stock ticker for ACME'), 'StockTicker');
  });

  it('answers None when no term is shared and None is allowed', async () => {
    assert.equal(await lexical('Tell me a joke about penguins'), 'None');
  });

  it('without None, breaks an all-zero tie by name (code-unit order: upper case first)', async () => {
    assert.equal(await lexical('Tell me a joke about penguins', { allowNone: false }), 'FlightBooker');
    assert.equal(await lexical('Tell me a joke about penguins', { allowNone: false, maxSelections: 2 }), 'FlightBooker, RecipeFinder');
  });

  it('picks two tools for a two-part question, and only the matching one when None is allowed', async () => {
    const two = (await lexical('book a flight to Lyon and check the weather forecast there', { maxSelections: 2, allowNone: false })).split(', ');
    assert.deepEqual([...two].sort(), ['FlightBooker', 'weather_forecast']);
    assert.equal(await lexical('book a flight to Lyon', { maxSelections: 2 }), 'FlightBooker');
  });

  it('keeps the BM25 scores in the raw response', async () => {
    const result = await baseline('lexical', 0).generate(
      ask({ kind: 'select', query: 'weather', candidates: tools, maxSelections: 1, allowNone: true }),
      live,
    );
    const raw = result.rawResponse as { scores: Record<string, number> };
    assert.ok((raw.scores.weather_forecast ?? 0) > 0);
    assert.equal(raw.scores.FlightBooker, 0);
  });

  it('answers yes-no questions from cue words', async () => {
    const yn = (query: string) => answerOf('lexical', 0, yesNo(query));
    assert.equal(await yn('What is the current price of Bitcoin?'), 'yes');
    assert.equal(await yn('Compare prices of apples and pears'), 'yes'); // only cue: the plural of "price"
    assert.equal(await yn('Any news on the election?'), 'yes');
    assert.equal(await yn('I need real time updates on the match'), 'yes'); // two-word cue "real-time"
    assert.equal(await yn('Write a poem about autumn leaves'), 'no');
    assert.equal(await yn('Create a new poem'), 'no'); // "new" is not the cue "news"
    assert.equal(await yn('What is the real cost of time?'), 'no'); // "real" and "time" not adjacent
  });

  it('does not depend on the seed', async () => {
    const hints = select('book a flight');
    assert.equal(await answerOf('lexical', 1, hints), await answerOf('lexical', 2, hints));
  });
});
