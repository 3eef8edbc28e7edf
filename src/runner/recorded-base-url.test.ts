import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../core/errors.js';
import { makeRun } from '../store/test-support/store-contract.js';
import { withWorkerEndpoint } from './recorded-base-url.js';

const engine: { readonly concurrency: number; readonly timeoutMs: number; readonly cache: boolean; readonly openaiBaseURL?: string } = { concurrency: 4, timeoutMs: 1000, cache: true };
const OWN = 'http://127.0.0.1:8001/v1';
const OTHER = 'http://127.0.0.1:8002/v1';

/** The message a refused run gives, or undefined when it is accepted. */
function refusal(run: Parameters<typeof withWorkerEndpoint>[0], own: string | undefined, environment: NodeJS.ProcessEnv = {}): string | undefined {
  try {
    withWorkerEndpoint(run, run.engine, own, environment);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof InputError, String(error));
    return error.message;
  }
}

test('a worker calls its own endpoint: the run\'s base URL is dropped, and the worker\'s --base-url put in its place', () => {
  const recorded = { ...engine, openaiBaseURL: OWN };
  assert.deepEqual(withWorkerEndpoint(makeRun({ engine: recorded }), recorded, OWN, {}), { ...engine, openaiBaseURL: OWN });
  // Without a --base-url of its own, the provider reads the worker's OPENAI_BASE_URL: nothing of the run's is left.
  assert.deepEqual(withWorkerEndpoint(makeRun({ engine: recorded }), recorded, undefined, { OPENAI_BASE_URL: OWN }), engine);
  assert.deepEqual(withWorkerEndpoint(makeRun({ engine }), engine, undefined, {}), engine);
  assert.deepEqual(withWorkerEndpoint(makeRun({ engine }), engine, OTHER, {}), { ...engine, openaiBaseURL: OTHER });
});

test('a run recording another endpoint is refused, naming the field and the recorded URL, never the worker\'s own', () => {
  const run = makeRun({ id: 'r1', engine: { ...engine, openaiBaseURL: OTHER } });
  for (const [own, environment] of [[OWN, {}], [undefined, { OPENAI_BASE_URL: OWN }], [undefined, {}]] as const) {
    const message = refusal(run, own, environment);
    assert.ok(message !== undefined, `own ${own ?? environment.OPENAI_BASE_URL ?? 'the default'}: refused`);
    assert.match(message, /^run r1 records engine\.openaiBaseURL "http:\/\/127\.0\.0\.1:8002\/v1", which is not this worker's endpoint/);
    assert.ok(!message.includes('8001'), message);
  }
  // The worker's --base-url wins over its environment, as in the provider.
  assert.match(refusal(makeRun({ engine: { ...engine, openaiBaseURL: OWN } }), OTHER, { OPENAI_BASE_URL: OWN }) ?? '', /engine\.openaiBaseURL/);
  // No endpoint of the worker's own: api.openai.com, so a run naming it is served, another is not.
  assert.equal(refusal(makeRun({ engine: { ...engine, openaiBaseURL: 'https://api.openai.com/v1' } }), undefined, {}), undefined);
});

test('the same endpoint spelled otherwise, or recorded with its credentials hidden, is the worker\'s own', () => {
  const same = (recorded: string, own: string): boolean => refusal(makeRun({ engine: { ...engine, openaiBaseURL: recorded } }), own) === undefined;
  assert.ok(same('http://127.0.0.1:8001/v1/', OWN));
  assert.ok(same('HTTP://LOCALHOST:80/v1', 'http://localhost/v1'));
  assert.ok(same('http://u:***@gw.example/v1?api_key=***', 'http://u:s3cret@gw.example/v1?api_key=k3y'));
  assert.ok(!same('http://u:***@gw.example/v1?api_key=***', 'http://other:s3cret@gw.example/v1?api_key=k3y'));
  assert.ok(!same('http://127.0.0.1:8001/v2', OWN));
  assert.ok(!same('http://127.0.0.1:8001/v1?tenant=a', OWN));
  // Keys the run hid in a path segment or a query value of any name: one segment, one value each.
  assert.ok(same('http://gw.example/***/v1?q=***', 'http://gw.example/sk-path-key/v1?q=sk-query-key'));
  assert.ok(!same('http://gw.example/***/v1?q=***', 'http://gw.example/a/b/v1?q=sk-query-key'));
  assert.ok(!same('http://gw.example/***/v1?q=***', 'http://other.example/sk-path-key/v1?q=sk-query-key'));
});

test('a run whose models, judge and simulated user call no openai: endpoint is not refused for a base URL it recorded', () => {
  const recorded = { ...engine, openaiBaseURL: OTHER };
  const notOpenAI = makeRun({ models: ['anthropic:claude', 'baseline:lexical'], engine: recorded });
  assert.deepEqual(withWorkerEndpoint(notOpenAI, recorded, undefined, {}), engine);
  const judge = { model: 'openai:judge', repeats: 1, format: 'text' as const, maxParseRetries: 1, temperature: 0, selfGrading: false };
  assert.match(refusal(makeRun({ models: ['anthropic:claude'], judge, engine: recorded }), OWN) ?? '', /engine\.openaiBaseURL/);
  assert.match(refusal(makeRun({ models: ['anthropic:claude'], userModel: 'openai:user', engine: recorded }), OWN) ?? '', /engine\.openaiBaseURL/);
});
