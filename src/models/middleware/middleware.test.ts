import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { canonicalJson, ModelCallError, sha256, user, type GenerateRequest, type GenerateResult } from '../../core/index.js';
import type { ModelProvider } from '../spec.js';
import { fakeClock } from './test-support/fake-clock.js';
import { Model, modelSettingsOf, type CallCache, type ModelSettings } from './model.js';
import { RateLimiter } from './rate-limiter.js';
import { retryDelay } from './retry-policy.js';
import { Semaphore } from './semaphore.js';
import { RunSecrets } from '../http/redact-secrets.js';

const result = (text: string, usage = { inputTokens: 10, outputTokens: 2 }): GenerateResult => ({
  text,
  toolCalls: [],
  finishReason: { unified: 'stop' },
  usage,
  warnings: [],
});

const request: GenerateRequest = { messages: [user('hello')], settings: { temperature: 0 } };

function provider(answer: (call: number) => GenerateResult | Error, cacheable = true): ModelProvider & { calls: number } {
  const p = {
    specVersion: 'v1' as const,
    id: 'scripted:test',
    cacheable,
    calls: 0,
    async generate() {
      p.calls++;
      const a = answer(p.calls);
      if (a instanceof Error) throw a;
      return a;
    },
  };
  return p;
}

const settings = (overrides: Partial<ModelSettings> = {}): ModelSettings => ({
  concurrency: 4,
  timeoutMs: 1000,
  retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 },
  cache: true,
  ...overrides,
});

test('semaphore never lets more than its limit run and serves waiters in order', async () => {
  const semaphore = new Semaphore(2);
  let running = 0;
  let peak = 0;
  const order: number[] = [];
  await Promise.all(
    [1, 2, 3, 4, 5].map(async (i) => {
      const release = await semaphore.acquire();
      running++;
      peak = Math.max(peak, running);
      order.push(i);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      release();
    }),
  );
  assert.equal(peak, 2);
  assert.deepEqual(order, [1, 2, 3, 4, 5]);
});

test('rate limiter: a burst up to the limit passes, the next unit waits 60s/limit', async () => {
  const clock = fakeClock();
  const limiter = new RateLimiter(60, clock); // one a second
  for (let i = 0; i < 60; i++) await limiter.take();
  assert.deepEqual(clock.sleeps, []);
  await limiter.take();
  assert.deepEqual(clock.sleeps, [1000]);
});

test('retry delay: exponential with jitter in [ceiling/2, ceiling], Retry-After wins, non-retryable gives up', () => {
  const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 250 };
  const server = new ModelCallError('server', 'boom');
  assert.equal(retryDelay(server, 1, policy, () => 0), 50);
  assert.equal(retryDelay(server, 1, policy, () => 1), 100);
  assert.equal(retryDelay(server, 2, policy, () => 1), 200);
  assert.equal(retryDelay(server, 3, policy, () => 1), 250); // capped by maxDelayMs
  assert.equal(retryDelay(server, 4, policy, () => 1), undefined); // out of retries
  const limited = new ModelCallError('rate-limit', 'slow down', { retryAfterMs: 2000 });
  assert.equal(retryDelay(limited, 1, policy, () => 0), 2000);
  assert.equal(retryDelay(new ModelCallError('bad-request', 'no'), 1, policy, () => 0), undefined);
  assert.equal(retryDelay(new Error('bug'), 1, policy, () => 0), undefined);
});

test('model retries retryable errors, honours Retry-After, and records every attempt', async () => {
  const clock = fakeClock();
  const p = provider((n) => (n === 1 ? new ModelCallError('rate-limit', '429', { status: 429, retryAfterMs: 3000 }) : n === 2 ? new ModelCallError('server', '500', { status: 500 }) : result('ok')));
  const model = new Model({ provider: p, settings: settings(), clock, random: () => 0 });
  const outcome = await model.generate(request, { sampleId: 's1' });
  assert.equal(outcome.output?.text, 'ok');
  assert.equal(outcome.error, null);
  assert.deepEqual(outcome.attempts.map((a) => a.error?.kind ?? 'ok'), ['rate-limit', 'server', 'ok']);
  assert.deepEqual(clock.sleeps, [3000, 100]); // Retry-After, then backoff of retry 2 (ceiling 200, jitter 0 → 100)
});

test('model gives up after maxRetries and returns the error as data, never as output', async () => {
  const p = provider(() => new ModelCallError('server', 'down', { status: 503 }));
  const model = new Model({ provider: p, settings: settings(), clock: fakeClock(), random: () => 0 });
  const outcome = await model.generate(request, { sampleId: 's1' });
  assert.equal(outcome.output, null);
  assert.deepEqual(outcome.error, { kind: 'server', message: 'down', status: 503 });
  assert.equal(outcome.attempts.length, 4);
  assert.equal(p.calls, 4);
});

test('model does not retry a bad request', async () => {
  const p = provider(() => new ModelCallError('bad-request', 'invalid', { status: 400 }));
  const outcome = await new Model({ provider: p, settings: settings(), clock: fakeClock(), random: () => 0 }).generate(request, { sampleId: 's' });
  assert.equal(p.calls, 1);
  assert.equal(outcome.error?.kind, 'bad-request');
});

test('model times out a hung call and retries it', async () => {
  let calls = 0;
  const hung: ModelProvider = {
    specVersion: 'v1',
    id: 'scripted:hang',
    cacheable: false,
    generate: (_req, { signal }) => {
      calls++;
      if (calls === 1) return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
      return Promise.resolve(result('late but fine'));
    },
  };
  const model = new Model({ provider: hung, settings: settings({ timeoutMs: 20 }), random: () => 0 });
  const outcome = await model.generate(request, { sampleId: 's' });
  assert.equal(outcome.output?.text, 'late but fine');
  assert.equal(outcome.attempts[0]?.error?.kind, 'timeout');
});

test("the run's signal ends a call in flight as aborted (not a timeout), and calls add no listener to it per call", async () => {
  const run = new AbortController();
  const seen: AbortSignal[] = [];
  const p: ModelProvider = {
    specVersion: 'v1',
    id: 'scripted:stoppable',
    cacheable: false,
    generate: (req, { signal }) => {
      seen.push(signal);
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      if (req.messages.length === 1 && seen.length > 3) {
        // The fourth call hangs until the run is aborted (from here, so no wall-clock wait).
        queueMicrotask(() => run.abort(new ModelCallError('aborted', 'run stopped by the test')));
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
      }
      return Promise.resolve(result('ok'));
    },
  };
  const model = new Model({ provider: p, settings: settings({ timeoutMs: 60_000 }), random: () => 0 });
  for (let i = 0; i < 3; i++) assert.equal((await model.generate(request, { sampleId: `s${i}`, signal: run.signal })).output?.text, 'ok');
  assert.equal(getEventListeners(run.signal, 'abort').length, 1, 'one listener for the run signal, however many calls');
  const stopped = await model.generate(request, { sampleId: 's3', signal: run.signal });
  assert.equal(stopped.output, null);
  assert.equal(stopped.error?.kind, 'aborted');
  assert.equal(stopped.attempts.length, 1, 'an aborted call is not retried');
  assert.ok(seen[3]?.aborted);
  assert.equal(getEventListeners(run.signal, 'abort').length, 0);
  // A signal aborted before the call: the provider is handed an aborted signal, as before.
  const late = await model.generate(request, { sampleId: 's4', signal: run.signal });
  assert.ok(seen[4]?.aborted);
  assert.equal(late.error?.kind, 'aborted');
});

test('cache: a hit answers without calling the provider; non-cacheable providers and --no-cache skip it', async () => {
  const stored = new Map<string, GenerateResult>();
  const cache: CallCache = { lookupCache: async (key) => stored.get(key) };
  const p = provider(() => result('fresh'));
  const model = new Model({ provider: p, settings: settings(), cache, clock: fakeClock() });
  const key = model.cacheKey(request);
  assert.ok(key);
  stored.set(key, result('from cache'));
  const hit = await model.generate(request, { sampleId: 's' });
  assert.equal(hit.cached, true);
  assert.equal(hit.output?.text, 'from cache');
  assert.equal(p.calls, 0);
  // Any change to the request changes the key.
  assert.notEqual(model.cacheKey({ ...request, settings: { temperature: 0.1 } }), key);
  const schema = { type: 'object', properties: { verdict: { type: 'string' } } };
  const structured = model.cacheKey({ ...request, responseFormat: { type: 'json', name: 'verdict', schema } });
  assert.notEqual(structured, key);
  assert.notEqual(model.cacheKey({ ...request, responseFormat: { type: 'json', name: 'other', schema } }), structured);
  // Requests without a response format keep the key they had before the field existed.
  assert.equal(key, sha256(`scripted:test\n${canonicalJson({ messages: request.messages, settings: request.settings })}`));
  const noCache = new Model({ provider: p, settings: settings({ cache: false }), cache, clock: fakeClock() });
  assert.equal((await noCache.generate(request, { sampleId: 's' })).output?.text, 'fresh');
  const uncacheable = new Model({ provider: provider(() => result('replayed'), false), settings: settings(), cache, clock: fakeClock() });
  assert.equal(uncacheable.cacheKey(request), null);
});

test('cost is computed from the price and usage, and is null when the price is unknown', async () => {
  const priced = new Model({ provider: provider(() => result('x', { inputTokens: 1_000_000, outputTokens: 500_000 })), settings: settings({ price: { inputPerMillion: 0.15, outputPerMillion: 0.6 } }), clock: fakeClock() });
  const outcome = await priced.generate(request, { sampleId: 's' });
  assert.ok(Math.abs((outcome.costUsd ?? NaN) - (0.15 + 0.3)) < 1e-12);
  const unpriced = await new Model({ provider: provider(() => result('x')), settings: settings(), clock: fakeClock() }).generate(request, { sampleId: 's' });
  assert.equal(unpriced.costUsd, null);
});

test('single flight: identical calls in flight share one answer (a cache hit for the others), an error is not shared, finished calls are not kept', async () => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const p = provider(() => result('shared'));
  const slow: ModelProvider = { ...p, generate: async (...args) => (await held, p.generate(...args)) };
  const model = new Model({ provider: slow, settings: settings() });
  const calls = [1, 2, 3].map((i) => model.generate(request, { sampleId: `s${i}` }));
  release();
  const outcomes = await Promise.all(calls);
  assert.equal(p.calls, 1);
  assert.deepEqual(outcomes.map((o) => [o.output?.text, o.cached, o.attempts.length, o.costUsd === 0]), [['shared', false, 1, false], ['shared', true, 0, true], ['shared', true, 0, true]]);
  // Nothing of a finished call is kept: the next identical call is made again (no store here to answer it).
  await model.generate(request, { sampleId: 's4' });
  assert.equal(p.calls, 2);

  const failing = provider((call) => (call === 1 ? new ModelCallError('bad-request', 'no') : result('ok')));
  const second = new Model({ provider: failing, settings: settings() });
  const [first, twin] = await Promise.all([second.generate(request, { sampleId: 'a' }), second.generate(request, { sampleId: 'b' })]);
  assert.deepEqual([first.error?.kind, twin.output?.text, twin.cached], ['bad-request', 'ok', false]);

  const independent = provider(() => result('x'));
  const uncached = new Model({ provider: independent, settings: settings({ cache: false }) });
  await Promise.all([uncached.generate(request, { sampleId: 'a' }), uncached.generate(request, { sampleId: 'b' })]);
  assert.equal(independent.calls, 2);
});

test('a model stores no key of its run: outputs and errors are redacted after decoding, of every model\'s secrets', async () => {
  const testKey = 'sk-test-model-key/01';
  const judgeKey = 'sk-judge-key+0002';
  const secrets = new RunSecrets();
  // The judge's provider echoes the model under test's key (decoded, as a provider hands it over) and its own.
  const judge = new Model({ provider: { ...provider(() => result(`echo ${testKey} and ${judgeKey}`)), secrets: [judgeKey] }, settings: settings(), clock: fakeClock(), random: () => 0, secrets });
  const tested = new Model({ provider: { ...provider(() => new ModelCallError('auth', `HTTP 401: bad key ${judgeKey}`, { status: 401 })), secrets: [testKey] }, settings: settings({ retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } }), clock: fakeClock(), random: () => 0, secrets });
  const judged = await judge.generate(request, { sampleId: 's1' });
  assert.equal(judged.output?.text, 'echo [REDACTED] and [REDACTED]');
  const failed = await tested.generate(request, { sampleId: 's1' });
  assert.equal(failed.error?.message, 'HTTP 401: bad key [REDACTED]');
  assert.equal(failed.attempts[0]?.error?.message, 'HTTP 401: bad key [REDACTED]');
});

test("a model's settings are its share of the run's engine settings: not the endpoint (which may carry credentials) nor the run-wide ones", () => {
  const retry = { maxRetries: 1, baseDelayMs: 2, maxDelayMs: 3 };
  const engine = { concurrency: 2, timeoutMs: 50, retry, cache: false, requestsPerMinute: 60, openaiBaseURL: 'http://u:secret@127.0.0.1:9/v1', prices: { a: { inputPerMillion: 1, outputPerMillion: 2 } }, maxCostUsd: 5, failFast: false };
  const price = { inputPerMillion: 1, outputPerMillion: 2 };
  assert.deepEqual(modelSettingsOf(engine, { price, retryNoticeMs: 10 }), { concurrency: 2, timeoutMs: 50, retry, cache: false, requestsPerMinute: 60, price, retryNoticeMs: 10 });
  assert.deepEqual(modelSettingsOf({ concurrency: 1, timeoutMs: 1, retry, cache: true }), { concurrency: 1, timeoutMs: 1, retry, cache: true });
});

test('a model\'s own params (a config file\'s) replace the run\'s sampling settings in what it is sent and in its cache key', async () => {
  const seen: GenerateRequest[] = [];
  const p: ModelProvider = { specVersion: 'v1', id: 'small', cacheable: true, generate: async (r) => (seen.push(r), result('ok')) };
  const model = new Model({ provider: p, settings: settings({ params: { temperature: 0.7, maxTokens: 64 } }) });
  const outcome = await model.generate({ ...request, settings: { temperature: 0, topP: 0.5 } }, { sampleId: 's' });
  assert.deepEqual(seen[0]?.settings, { temperature: 0.7, topP: 0.5, maxTokens: 64 });
  assert.equal(outcome.cacheKey, model.cacheKey({ ...request, settings: { temperature: 0.7, topP: 0.5, maxTokens: 64 } }));
  const plain = new Model({ provider: p, settings: settings() });
  await plain.generate(request, { sampleId: 's' });
  assert.deepEqual(seen[1]?.settings, { temperature: 0 }, 'without params the run\'s settings are sent as they are');
});
