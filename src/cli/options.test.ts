import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { collect, nonNegativeInt, number, parsePrice, positiveInt } from './options.js';

test('integer and number parsers accept what they say and reject the rest with the flag name', () => {
  assert.equal(positiveInt('--limit')('12'), 12);
  for (const bad of ['0', '-1', '1.5', 'ten', '']) assert.throws(() => positiveInt('--limit')(bad), (e: unknown) => e instanceof InvalidArgumentError && /--limit/.test(e.message));
  assert.equal(nonNegativeInt('--seed')('0'), 0);
  assert.throws(() => nonNegativeInt('--seed')('-3'), InvalidArgumentError);
  assert.equal(number('--temperature', 0, 2)('0.7'), 0.7);
  for (const bad of ['2.5', '-0.1', ' ', 'warm']) assert.throws(() => number('--temperature', 0, 2)(bad), InvalidArgumentError);
});

test('repeatable flags accumulate; --price reads model=in/out in USD per million tokens', () => {
  assert.deepEqual(collect('b', collect('a', undefined)), ['a', 'b']);
  const prices = parsePrice('openai:my-model=0.15/0.60', parsePrice('openai:other=1/2', undefined));
  assert.deepEqual(prices, {
    'openai:other': { inputPerMillion: 1, outputPerMillion: 2 },
    'openai:my-model': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  });
  assert.throws(() => parsePrice('openai:x=cheap', undefined), /--price must look like/);
});
