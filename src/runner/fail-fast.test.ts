import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResultRecord } from '../store/records.js';
import { describeStop, FailFast, STOP_AFTER, STOP_UNANSWERED, type FailedCall } from './fail-fast.js';

const result = (sampleId: string, modelId = 'openai:m'): ResultRecord => ({
  runId: 'r',
  sampleId,
  modelId,
  status: 'error',
  output: null,
  score: null,
  error: { kind: 'x', message: 'x' },
  cached: false,
  attempts: 1,
  latencyMs: 1,
  usage: {},
  costUsd: null,
  finishedAt: '2026-01-01T00:00:00.000Z',
});

const call = (kind: string, message = `${kind} message`, actor = 'openai:m', role: 'test' | 'judge' = 'test'): FailedCall => ({ actor, role, kind, message });

test('the bounds are the documented ones', () => {
  assert.deepEqual(STOP_AFTER, { auth: 1, 'not-found': 1, 'bad-request': 3 });
  assert.deepEqual(STOP_UNANSWERED, { network: 3, timeout: 3 });
});

test('network and timeout errors before any answer stop the model after three identical ones in a row', () => {
  const ff = new FailFast();
  const refused = 'cannot complete POST http://127.0.0.1:1/v1/chat/completions: connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED)';
  assert.deepEqual(ff.failed(call('network', refused), result('a')), { hold: true, release: [] });
  assert.deepEqual(ff.failed(call('network', refused), result('b')), { hold: true, release: [] });
  assert.equal(ff.stopped('openai:m'), false);
  ff.failed(call('network', refused), result('c'));
  assert.equal(ff.stopped('openai:m'), true);
  assert.deepEqual(ff.stops.map((s) => [s.actor, s.kind, s.count]), [['openai:m', 'network', 3]]);
  // The judge's timeouts the same way, and with it the run.
  const judged = new FailFast();
  for (const id of ['a', 'b', 'c']) judged.failed(call('timeout', 'no answer within 120000 ms', 'openai:j', 'judge'), result(id));
  assert.equal(judged.stopped('openai:m'), true);
});

test('once a model has answered, its network and timeout errors neither count nor break a streak; another model has not answered', () => {
  const ff = new FailFast();
  ff.failed(call('network', 'reset'), result('a'));
  ff.failed(call('network', 'reset'), result('b'));
  assert.deepEqual(ff.succeeded('openai:m', 'test').map((r) => r.sampleId), ['a', 'b'], 'the streak was about those samples after all');
  for (const id of ['c', 'd', 'e', 'f']) assert.deepEqual(ff.failed(call('network', 'reset'), result(id)), { hold: false, release: [] });
  assert.deepEqual(ff.failed(call('timeout', 'no answer within 5 ms'), result('g')), { hold: false, release: [] });
  assert.equal(ff.stopped('openai:m'), false);
  ff.failed(call('bad-request', 'same'), result('h'));
  ff.failed(call('network', 'reset'), result('i'));
  ff.failed(call('bad-request', 'same'), result('j'));
  ff.failed(call('bad-request', 'same'), result('k'));
  assert.equal(ff.stopped('openai:m'), true, 'the network error between did not break the bad-request streak');
  // The judge answering says nothing of the model's endpoint, nor the model's of the judge's.
  const other = new FailFast();
  other.succeeded('openai:m', 'judge');
  for (const id of ['a', 'b', 'c']) other.failed(call('network', 'refused'), result(id));
  assert.equal(other.stopped('openai:m'), true);
});

test('a different network message breaks the streak before any answer, and hands its samples back', () => {
  const ff = new FailFast();
  ff.failed(call('network', 'ECONNRESET'), result('a'));
  ff.failed(call('network', 'ECONNRESET'), result('b'));
  assert.deepEqual(ff.failed(call('timeout', 'no answer within 5 ms'), result('c')).release.map((r) => r.sampleId), ['a', 'b']);
  assert.equal(ff.stopped('openai:m'), false);
});

test('the first auth or not-found error stops that model only; its sample is held, not stored', () => {
  const ff = new FailFast();
  assert.deepEqual(ff.failed(call('auth'), result('a')), { hold: true, release: [] });
  assert.equal(ff.stopped('openai:m'), true);
  assert.equal(ff.stopped('openai:other'), false);
  // What still comes back failing after the stop stays unfinished too, whatever its message.
  assert.deepEqual(ff.failed(call('auth', 'another text'), result('b')), { hold: true, release: [] });
  assert.deepEqual(ff.failed(call('not-found', 'HTTP 404', 'openai:other'), result('c', 'openai:other')), { hold: true, release: [] });
  assert.equal(ff.stopped('openai:other'), true);
  assert.deepEqual(ff.stops.map((s) => [s.actor, s.kind, s.count]), [['openai:m', 'auth', 1], ['openai:other', 'not-found', 1]]);
  assert.deepEqual(ff.drain(), [], 'the samples of a stop are never handed back');
});

test('bad-request stops after three identical messages in a row, not before', () => {
  const ff = new FailFast();
  ff.failed(call('bad-request', 'Unsupported parameter: max_tokens'), result('a'));
  ff.failed(call('bad-request', 'Unsupported parameter: max_tokens'), result('b'));
  assert.equal(ff.stopped('openai:m'), false);
  ff.failed(call('bad-request', 'Unsupported parameter: max_tokens'), result('c'));
  assert.equal(ff.stopped('openai:m'), true);
  assert.equal(ff.stops[0]?.count, 3);
});

test('a different message breaks a bad-request streak and hands its samples back to be stored', () => {
  const ff = new FailFast();
  ff.failed(call('bad-request', 'context is 9001 tokens'), result('a'));
  ff.failed(call('bad-request', 'context is 9001 tokens'), result('b'));
  const next = ff.failed(call('bad-request', 'context is 12000 tokens'), result('c'));
  assert.deepEqual(next.release.map((r) => r.sampleId), ['a', 'b']);
  assert.equal(ff.stopped('openai:m'), false);
  assert.deepEqual(ff.drain().map((r) => r.sampleId), ['c'], 'an open streak at the end is stored');
});

test('a success breaks a streak; other error kinds neither count nor break one', () => {
  const ff = new FailFast();
  ff.failed(call('bad-request', 'same'), result('a'));
  assert.deepEqual(ff.failed(call('server', 'HTTP 503'), result('s')), { hold: false, release: [] });
  assert.deepEqual(ff.failed(call('judge-parse', 'x'), result('t')), { hold: false, release: [] });
  ff.failed(call('bad-request', 'same'), result('b'));
  assert.deepEqual(ff.succeeded('openai:m', 'judge'), [], 'the judge answering says nothing of the model');
  assert.deepEqual(ff.succeeded('openai:m', 'test').map((r) => r.sampleId), ['a', 'b']);
  ff.failed(call('bad-request', 'same'), result('c'));
  ff.failed(call('bad-request', 'same'), result('d'));
  assert.equal(ff.stopped('openai:m'), false, 'two after a success are not three in a row');
});

test("the judge's stop stops every model", () => {
  const ff = new FailFast();
  ff.failed(call('auth', 'the judge openai:j failed: HTTP 401', 'openai:j', 'judge'), result('a'));
  assert.equal(ff.stopped('openai:m'), true);
  assert.equal(ff.stopped('anthropic:n'), true);
});

test('disabled (--no-fail-fast), nothing is held and nothing stops', () => {
  const ff = new FailFast(false);
  for (const id of ['a', 'b', 'c', 'd']) assert.deepEqual(ff.failed(call('auth'), result(id)), { hold: false, release: [] });
  assert.equal(ff.stopped('openai:m'), false);
  assert.deepEqual(ff.stops, []);
});

test('the warning names the model, the kind, the message and the resume', () => {
  const text = describeStop({ actor: 'openai:m', role: 'test', kind: 'auth', message: 'HTTP 401 from POST http://x/v1/chat/completions: Incorrect API key provided', count: 1 }, 'run-1');
  assert.match(text, /^stopped openai:m after 1 auth error — the provider refuses the credentials: HTTP 401 .*Incorrect API key provided\. .*then assay resume run-1$/);
  assert.doesNotMatch(text, /--retry-errors/);
  const network = describeStop({ actor: 'openai:m', role: 'test', kind: 'network', message: 'cannot complete POST http://127.0.0.1:1/v1/chat/completions: connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED)', count: 3 }, 'run-1');
  assert.match(network, /^stopped openai:m after 3 identical network errors in a row — nothing has answered at this endpoint yet in this session: cannot complete POST http:\/\/127\.0\.0\.1:1\/.*To go on: check the base URL \(--base-url, OPENAI_BASE_URL .*\) and that the server is up, then assay resume run-1$/);
  assert.match(describeStop({ actor: 'openai:m', role: 'test', kind: 'timeout', message: 'no answer within 5 ms', count: 3 }, 'run-1'), /no call has been answered in time yet.*a longer --timeout, then assay resume run-1$/);
});

test('holding no results (a queue worker): the same streaks and stops, but every error is stored as it comes and nothing is handed back', () => {
  const ff = new FailFast(true, { holdResults: false });
  const stored = { hold: false, release: [] };
  assert.deepEqual(ff.failed(call('bad-request', 'same'), result('a')), stored);
  assert.deepEqual(ff.failed(call('bad-request', 'same'), result('b')), stored);
  assert.equal(ff.stopped('openai:m'), false);
  // A different message breaks the streak: nothing to hand back, those errors were stored.
  assert.deepEqual(ff.failed(call('bad-request', 'other'), result('c')), stored);
  assert.deepEqual(ff.succeeded('openai:m', 'test'), []);
  for (const id of ['d', 'e']) assert.deepEqual(ff.failed(call('bad-request', 'same'), result(id)), stored);
  assert.equal(ff.stopped('openai:m'), false, 'the success broke the streak');
  assert.deepEqual(ff.failed(call('bad-request', 'same'), result('f')), stored);
  assert.equal(ff.stopped('openai:m'), true, 'three identical messages in a row');
  assert.deepEqual(ff.stops.map((s) => [s.actor, s.kind, s.count]), [['openai:m', 'bad-request', 3]]);
  assert.deepEqual(ff.failed(call('auth'), result('g')), stored, 'after the stop too');
  assert.deepEqual(ff.drain(), []);
});
