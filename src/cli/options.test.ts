import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { collect, nonNegativeInt, number, parsePrice, positiveInt, usdAmount } from './options.js';

const refused = (name: RegExp) => (e: unknown) => e instanceof InvalidArgumentError && name.test(e.message);

test('integer and number parsers accept what they say and reject the rest with the flag name', () => {
  assert.equal(positiveInt('--limit')('12'), 12);
  for (const bad of ['0', '-1', '1.5', 'ten', '']) assert.throws(() => positiveInt('--limit')(bad), refused(/--limit/));
  assert.equal(nonNegativeInt('--seed')('0'), 0);
  assert.equal(nonNegativeInt('--seed')('007'), 7);
  assert.throws(() => nonNegativeInt('--seed')('-3'), InvalidArgumentError);
  assert.equal(number('--temperature', 0, 2)('0.7'), 0.7);
  assert.equal(number('--temperature', 0, 2)('1'), 1);
  for (const bad of ['2.5', '-0.1', ' ', 'warm']) assert.throws(() => number('--temperature', 0, 2)(bad), InvalidArgumentError);
});

test('counts are plain decimal digits: exponent, hex, binary, decimal point, sign and spaces are refused', () => {
  // Every one of these is a whole number to Number(), which is how they used to slip through.
  for (const bad of ['1e3', '0x10', '0b11', '0o7', '1.0', '+5', ' 5', '5 ', '1_000', '9007199254740993']) {
    assert.throws(() => positiveInt('--concurrency')(bad), refused(/^--concurrency must be a positive integer, got "/), bad);
    assert.throws(() => nonNegativeInt('--seed')(bad), refused(/^--seed must be a non-negative integer, got "/), bad);
  }
  // The message shows the spelling that was probably meant.
  assert.throws(() => nonNegativeInt('--seed')('1e3'), refused(/got "1e3" \(plain decimal digits only, e\.g\. 1000\)$/));
  assert.throws(() => positiveInt('--concurrency')('0x10'), refused(/e\.g\. 16\)$/));
  assert.throws(() => positiveInt('--limit')('x'), refused(/got "x"$/));
  for (const bad of ['1e0', '0x1', '+1', ' 1', 'Infinity']) assert.throws(() => number('--temperature', 0, 2)(bad), refused(/--temperature/), bad);
  for (const bad of ['1e3', '0x10', '+2', '2..5']) assert.throws(() => usdAmount('--max-cost')(bad), refused(/--max-cost/), bad);
  assert.equal(usdAmount('--max-cost')('$2.50'), 2.5);
  assert.equal(usdAmount('--max-cost')('.5'), 0.5);
});

test('repeatable flags accumulate; --price reads model=in/out in USD per million tokens', () => {
  assert.deepEqual(collect('b', collect('a', undefined)), ['a', 'b']);
  const prices = parsePrice('openai:my-model=0.15/0.60', parsePrice('openai:other=1/2', undefined));
  assert.deepEqual(prices, {
    'openai:other': { inputPerMillion: 1, outputPerMillion: 2 },
    'openai:my-model': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  });
  assert.throws(() => parsePrice('openai:x=cheap', undefined), /--price must look like/);
  assert.throws(() => parsePrice('openai:x=1..2/3', undefined), /--price must look like/);
});
