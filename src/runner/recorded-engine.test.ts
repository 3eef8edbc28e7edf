import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../core/errors.js';
import { makeRun } from '../store/test-support/store-contract.js';
import { recordedEngineSettings } from './run.js';

const retry = { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100 };

test('a resume continues with the engine settings the run recorded, keys of other versions kept', () => {
  const engine = { concurrency: 4, timeoutMs: 1000, retry, cache: false, maxCostUsd: 2, dataDir: '/data', stopReason: 'kept as written' };
  assert.deepEqual(recordedEngineSettings(makeRun({ engine })), engine);
});

test('a record without the settings a session needs is refused, not guessed', () => {
  assert.throws(() => recordedEngineSettings(makeRun({ id: 'r1', engine: { concurrency: 4, timeoutMs: 1000, cache: true } })), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.match(error.message, /^run r1 does not record its engine settings/);
    return true;
  });
});
