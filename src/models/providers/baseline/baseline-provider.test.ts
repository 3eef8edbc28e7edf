import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError, ModelCallError, rngFor, user, type GenerateRequest, type ReferenceAnswerers, type ReferenceHints } from '../../../core/index.js';
import { createBaselineProvider, hintsHash, type BaselineName } from './baseline-provider.js';

// The provider is generic: a task's answerers (here a toy table) say what it answers. MetaTool's
// own are tested in benchmarks/metatool/baselines/.
const live = { signal: new AbortController().signal };

const ask = (hints: ReferenceHints | undefined): GenerateRequest => ({
  messages: [user('this prompt text is never read by a baseline')],
  settings: {},
  ...(hints ? { hints } : {}),
});

/** A toy task's questions: `coin` answered by a draw (random) or by the question's length (lexical). */
const toy: ReferenceAnswerers = {
  coin: {
    random: ({ rng }) => ({ text: String(rng().next()) }),
    lexical: ({ hints }) => ({ text: String(hints.question).length > 5 ? 'long' : 'short', detail: { length: String(hints.question).length } }),
  },
  // Only one strategy answers these.
  count: { lexical: ({ hints }) => ({ text: String(hints.n) }) },
};

const coin = (question: string): ReferenceHints => ({ kind: 'coin', question });

describe('baseline providers: contract', () => {
  for (const name of ['random', 'lexical'] as const) {
    it(`baseline:${name} has its id, is neither cacheable nor billed, and refuses requests without hints`, async () => {
      const provider = createBaselineProvider({ name, seed: 1, answerers: toy });
      assert.equal(provider.id, `baseline:${name}`);
      assert.equal(provider.cacheable, false);
      assert.equal(provider.billed, false);
      await assert.rejects(provider.generate(ask(undefined), live), (error: unknown) => {
        assert.ok(error instanceof ModelCallError);
        assert.equal(error.kind, 'unsupported');
        assert.match(error.message, new RegExp(`^baseline:${name} needs a task with structured hints`));
        assert.match(error.message, /this request has none$/);
        return true;
      });
    });
  }

  it('refuses hints of a kind its strategy has no answerer for, naming the kinds it answers', async () => {
    const random = createBaselineProvider({ name: 'random', seed: 1, answerers: toy });
    await assert.rejects(random.generate(ask({ kind: 'count', n: 3 }), live), (error: unknown) => {
      assert.ok(error instanceof ModelCallError);
      assert.equal(error.kind, 'unsupported');
      assert.equal(error.message, `baseline:random needs a task with structured hints it has an answerer for (the task's: coin); this request has "count" hints`);
      return true;
    });
    // A task's given answer is not a question a baseline answers.
    await assert.rejects(random.generate(ask({ kind: 'given', text: 'an answer' }), live), /this request has "given" hints/);
    // Inherited names are not kinds.
    await assert.rejects(random.generate(ask({ kind: 'constructor' }), live), /"constructor" hints/);
  });

  it('without answerers (no task gave any) answers nothing', async () => {
    await assert.rejects(createBaselineProvider({ name: 'lexical', seed: 1 }).generate(ask(coin('q')), live), (error: unknown) => {
      assert.equal((error as ModelCallError).message, 'baseline:lexical needs a task with structured hints it has an answerer for (the task declares none); this request has "coin" hints');
      return true;
    });
  });

  it('answers with the strategy’s answerer, keeping its detail in the raw response', async () => {
    const result = await createBaselineProvider({ name: 'lexical', seed: 1, answerers: toy }).generate(ask(coin('a long question')), live);
    assert.equal(result.text, 'long');
    assert.deepEqual(result.toolCalls, []);
    assert.deepEqual(result.finishReason, { unified: 'stop' });
    assert.deepEqual(result.usage, {});
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.rawResponse, { baseline: 'lexical', answer: 'long', length: 15 });
    assert.equal((await createBaselineProvider({ name: 'lexical', seed: 1, answerers: toy }).generate(ask({ kind: 'count', n: 7 }), live)).text, '7');
  });

  it("draws from the question's generator: labelled by the strategy and the hints' canonical JSON, whatever the key order", async () => {
    const provider = createBaselineProvider({ name: 'random', seed: 42, answerers: toy });
    const hints: ReferenceHints = { kind: 'coin', question: 'heads?', extra: { b: 1, a: [2, 3] } };
    const reordered: ReferenceHints = { extra: { a: [2, 3], b: 1 }, question: 'heads?', kind: 'coin' };
    const expected = String(rngFor(42, `baseline:random:${hintsHash(hints)}`).next());
    assert.equal((await provider.generate(ask(hints), live)).text, expected);
    assert.equal((await createBaselineProvider({ name: 'random', seed: 42, answerers: toy }).generate(ask(reordered), live)).text, expected);
    assert.equal(hintsHash(hints), hintsHash(reordered));
    // Another seed, another draw.
    assert.notEqual((await createBaselineProvider({ name: 'random', seed: 43, answerers: toy }).generate(ask(hints), live)).text, expected);
  });

  it('rejects an unknown baseline name', () => {
    assert.throws(() => createBaselineProvider({ name: 'smart' as BaselineName, seed: 1, answerers: toy }), InputError);
  });

  it('refuses an already aborted call', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(createBaselineProvider({ name: 'random', seed: 1, answerers: toy }).generate(ask(coin('q')), { signal: controller.signal }), { kind: 'aborted' });
  });
});
