import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ModelCallError, user, type GenerateRequest } from '../../core/index.js';
import type { ModelProvider } from '../spec.js';
import { fakeClock } from './test-support/fake-clock.js';
import type { Limiter, LimiterFactory, LimitSpec } from './limiter.js';
import { Model } from './model.js';
import { RateLimiter, SLOW_DOWN_MS } from './rate-limiter.js';

test('back-off with Retry-After: the next take waits until then, and the bucket restarts empty (no burst after)', async () => {
  const clock = fakeClock();
  const limiter = new RateLimiter(60, clock); // one a second
  await limiter.take(1);
  limiter.backOff(5_000);
  await limiter.take(1);
  // Held 5 s, then one unit's refill (1 s): nothing refills while held.
  assert.deepEqual(clock.sleeps, [6_000]);
  await limiter.take(1);
  assert.deepEqual(clock.sleeps, [6_000, 1_000]);
});

test('back-off without Retry-After: the bucket empties and the rate halves per 429, down to an eighth, for a minute', async () => {
  const clock = fakeClock();
  const limiter = new RateLimiter(60, clock);
  limiter.backOff(undefined);
  await limiter.take(1);
  assert.deepEqual(clock.sleeps, [2_000]); // half rate: 2 s a unit
  for (let i = 0; i < 5; i++) limiter.backOff(undefined);
  await limiter.take(1);
  assert.equal(clock.sleeps.at(-1), 8_000); // an eighth, never less
  clock.time += SLOW_DOWN_MS; // a quiet minute: back to the full rate (and a full bucket)
  await limiter.take(60);
  assert.equal(clock.sleeps.length, 2);
  await limiter.take(1);
  assert.equal(clock.sleeps.at(-1), 1_000);
});

test('a model takes its limiters from the factory it is given, and tells them of a 429 with its Retry-After', async () => {
  const made: LimitSpec[] = [];
  const events: string[] = [];
  const factory: LimiterFactory = (spec) => {
    made.push(spec);
    const limiter: Limiter = {
      perMinute: spec.perMinute,
      take: async (amount) => void events.push(`${spec.kind} take ${amount}`),
      charge: (amount) => void events.push(`${spec.kind} charge ${amount}`),
      backOff: (ms) => void events.push(`${spec.kind} backOff ${ms}`),
    };
    return limiter;
  };
  let calls = 0;
  const provider: ModelProvider = {
    specVersion: 'v1',
    id: 'scripted:limited',
    cacheable: false,
    generate: async () => {
      calls++;
      if (calls === 1) throw new ModelCallError('rate-limit', '429', { status: 429, retryAfterMs: 1_500 });
      return { text: 'ok', toolCalls: [], finishReason: { unified: 'stop' }, usage: { inputTokens: 3, outputTokens: 2 }, warnings: [] };
    },
  };
  const request: GenerateRequest = { messages: [user('four')], settings: { maxTokens: 10 } };
  const model = new Model({ provider, settings: { concurrency: 1, timeoutMs: 1000, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 }, cache: false, requestsPerMinute: 30, tokensPerMinute: 900 }, clock: fakeClock(), random: () => 0, limiters: factory });
  const outcome = await model.generate(request, { sampleId: 's' });
  assert.equal(outcome.output?.text, 'ok');
  assert.deepEqual(made, [
    { modelId: 'scripted:limited', kind: 'requests', perMinute: 30 },
    { modelId: 'scripted:limited', kind: 'tokens', perMinute: 900 },
  ]);
  const tokens = events.find((e) => e.startsWith('tokens take'));
  assert.deepEqual(events, ['requests take 1', tokens, 'requests backOff 1500', 'tokens backOff 1500', 'requests take 1', tokens, 'tokens charge 2']);
});
