import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../core/errors.js';
import type { Store } from '../store/store.js';
import { queueLocation } from './queue-location.js';
import { resubmitRun } from './resubmit.js';
import { submitRun } from './submit.js';

// Nothing may be touched before the refusal: a store that throws on any use, and a Redis nobody
// listens on (were it reached first, the error would say "cannot reach Redis").
const untouchable = new Proxy({} as Store, {
  get: (_target, name) => {
    throw new Error(`the store was used (${String(name)})`);
  },
});
const queue = queueLocation('redis://127.0.0.1:1', 'units');
const engine = { concurrency: 1, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: 'http://127.0.0.1:9/v1' };

const refusedFirst = (error: unknown): boolean => {
  assert.ok(error instanceof InputError, String(error));
  assert.match(error.message, /^engine\.openaiBaseURL does not go with --queue: workers call only their own endpoint/);
  return true;
};

test('a queued run names no endpoint: submitting or resubmitting one with a base URL is refused before Redis or the store is touched', async () => {
  await assert.rejects(submitRun({ task: 'metatool/similar', models: ['openai:m'], seed: 1, options: {}, dataDir: '.', engine }, { store: untouchable, queue }), refusedFirst);
  await assert.rejects(resubmitRun('some-run', { store: untouchable, queue, engine: { openaiBaseURL: engine.openaiBaseURL } }), refusedFirst);
  // Without one, the next check is reached: Redis.
  await assert.rejects(resubmitRun('some-run', { store: untouchable, queue, engine: {} }), /Redis/);
});
