import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ModelCallError } from '../../../core/index.js';
import { createGivenProvider } from './given-provider.js';

test('given:answers returns the answer the sample carries, and refuses a sample without one', async () => {
  const provider = createGivenProvider('answers');
  const signal = new AbortController().signal;
  const out = await provider.generate({ messages: [], settings: {}, hints: { kind: 'given', text: 'It opened on Monday.' } }, { signal });
  assert.equal(out.text, 'It opened on Monday.');
  assert.equal(provider.billed, false);
  assert.equal(provider.cacheable, false);
  await assert.rejects(provider.generate({ messages: [], settings: {} }, { signal }), (e: unknown) => e instanceof ModelCallError && e.kind === 'unsupported');
});
