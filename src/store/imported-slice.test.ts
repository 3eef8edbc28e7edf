import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunSlice } from './records.js';
import { callsReferringToInput, checkSliceContinues } from './imported-slice.js';
import { makeCall, makeResult } from './test-support/store-contract.js';

const input = [{ role: 'user' as const, content: 'Which tool plays music?' }];
const slice = (calls: RunSlice['calls']): RunSlice => ({ samples: [{ id: 'q-beta', index: 3, input, target: null, metadata: {} }], calls, results: [], reviews: [] });

test('a call whose messages are exactly its sample’s input refers to it again; any other call is left as it is', () => {
  const same = makeCall({ request: { settings: { temperature: 0 }, messages: input } });
  const other = makeCall({ request: { settings: {}, messages: [{ role: 'user', content: 'Which tool plays music? ' }] } });
  const noMessages = makeCall({ request: { settings: {} } });
  const none = makeCall({ request: undefined });
  const [a, b, c, d] = callsReferringToInput(slice([same, other, noMessages, none]));
  assert.deepEqual(a, { ...same, request: { settings: { temperature: 0 } }, messagesFromSample: true });
  assert.equal(b, other);
  assert.equal(c, noMessages);
  assert.equal(d, none);
});

test('a slice must continue the run’s positions and hold only its own samples’ records', () => {
  assert.equal(checkSliceContinues('20260301-120000-ab12', slice([makeCall()]), 3), 4);
  assert.throws(() => checkSliceContinues('20260301-120000-ab12', slice([]), 2), /sample q-beta is at position 3, expected 2/);
  assert.throws(() => checkSliceContinues('20260301-120000-ab12', { ...slice([]), results: [makeResult({ sampleId: 'q-alpha' })] }, 3), /a record of 20260301-120000-ab12\/q-alpha is not of this slice's samples/);
  assert.throws(() => checkSliceContinues('other-run', slice([makeCall()]), 3), /a record of 20260301-120000-ab12\/q-beta is not of this slice's samples/);
});
