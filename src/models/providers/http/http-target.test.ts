import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assistant, InputError, ModelCallError, system, user, type GenerateRequest, type Message } from '../../../core/index.js';
import { startSessionApp, type SessionAppServer } from '../../../testing/session-app-server.js';
import { fakeClock } from '../../middleware/test-support/fake-clock.js';
import { Model, type ModelSettings } from '../../middleware/model.js';
import { REDACTED } from '../../http/redact-secrets.js';
import type { ModelProvider } from '../../spec.js';
import { bodyTemplateProblem } from './body-template.js';
import { createHttpTarget, type HttpTargetOptions } from './http-target.js';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const CHAT_BODY = '{"session": {{ session | tojson }}, "message": {{ prompt | tojson }}}';
const request = (messages: readonly Message[], extra: Partial<GenerateRequest> = {}): GenerateRequest => ({ messages, settings: {}, ...extra });
const signal = (): AbortSignal => new AbortController().signal;
const settings: ModelSettings = { concurrency: 4, timeoutMs: 5000, retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100 }, cache: true };

async function callError(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ModelCallError, `expected ModelCallError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('http target against a loopback app that keeps conversations by session', () => {
  let app: SessionAppServer;
  const providers: ModelProvider[] = [];
  const target = (options: Partial<HttpTargetOptions> = {}): ModelProvider => {
    const p = createHttpTarget({ name: 'support-bot', url: app.url, body: CHAT_BODY, output: 'reply', env: {}, ...options });
    providers.push(p);
    return p;
  };

  before(async () => {
    app = await startSessionApp();
  });
  afterEach(() => app.setBehavior({ respond: undefined, faults: undefined, latencyMs: undefined }));
  after(async () => {
    await Promise.all(providers.map((p) => p.close?.()));
    await app.close();
  });

  it('is the declared name, and is not cached when its body reads the session', () => {
    const stateful = target();
    assert.equal(stateful.id, 'support-bot');
    assert.equal(stateful.cacheable, false);
    assert.equal(target({ body: '{"session": "fixed", "message": {{ prompt | tojson }}}' }).cacheable, true);
    assert.equal(target({ body: '{"session": {{ sample_id | tojson }}, "message": {{ prompt | tojson }}}' }).cacheable, false);
    assert.equal(target({ cacheable: true }).cacheable, true);
  });

  it('renders every variable into the body', async () => {
    app.setBehavior({ respond: () => ({ reply: 'ok' }) });
    const body = '{"session": {{ session | tojson }}, "message": {{ prompt | tojson }}, "system": {{ system | tojson }}, "tools": {{ tools | tojson }}, "messages": {{ messages | tojson }}, "sample_id": {{ sample_id | tojson }}, "model": {{ model | tojson }}, "temperature": {{ settings.temperature | tojson }}}';
    const tools = [{ name: 'get_weather', description: 'Weather "now"', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    const messages = [system('Be brief.'), user('first'), assistant('ok'), user('Say "hi"\nnow')];
    const before = app.requests.length;
    const result = await target({ body }).generate(request(messages, { tools, settings: { temperature: 0.5 } }), { signal: signal(), sampleId: 'sample-1' });
    assert.equal(result.text, 'ok');
    const sent = app.requests[before]?.body as Record<string, unknown>;
    assert.equal(sent.message, 'Say "hi"\nnow');
    assert.equal(sent.system, 'Be brief.');
    assert.deepEqual(sent.tools, [{ type: 'function', function: tools[0] }]);
    assert.deepEqual(sent.messages, messages);
    assert.equal(sent.sample_id, 'sample-1');
    assert.equal(sent.model, 'support-bot');
    assert.equal(sent.temperature, 0.5);
    assert.match(String(sent.session), /^[0-9a-f]{12}-[0-9a-f]{16}$/);
  });

  it('gives every turn of a sample one session and no two samples the same, so the app keeps each conversation apart', async () => {
    const model = new Model({ provider: target(), settings });
    const conversations = { alice: ['hello', 'my order?', 'thanks'], bob: ['hi', 'refund please', 'bye'] };
    // Interleaved, as a run's samples are: alice 1, bob 1, alice 2, bob 2, …
    const said: Record<string, Message[]> = { alice: [], bob: [] };
    for (let turn = 0; turn < 3; turn++) {
      for (const [sampleId, lines] of Object.entries(conversations)) {
        const messages = said[sampleId] as Message[];
        messages.push(user(lines[turn] as string));
        const outcome = await model.generate(request([system('You are a support bot.'), ...messages]), { sampleId });
        assert.equal(outcome.error, null);
        assert.equal(outcome.output?.text, `turn ${turn + 1}: ${lines[turn]}`, 'the app saw every earlier turn of this session');
        messages.push(assistant(outcome.output?.text ?? ''));
      }
    }
    const sessions = new Map<string, Set<string>>();
    for (const r of app.requests.slice(-6)) {
      const body = r.body as { session: string; message: string };
      const sample = conversations.alice.includes(body.message) ? 'alice' : 'bob';
      sessions.set(sample, (sessions.get(sample) ?? new Set()).add(body.session));
    }
    assert.equal(sessions.get('alice')?.size, 1);
    assert.equal(sessions.get('bob')?.size, 1);
    const [alice] = sessions.get('alice') as Set<string>;
    const [bob] = sessions.get('bob') as Set<string>;
    assert.notEqual(alice, bob);
    assert.deepEqual(app.histories.get(alice as string), conversations.alice);
    assert.deepEqual(app.histories.get(bob as string), conversations.bob);
    // Another run (another provider) starts new conversations for the same samples.
    const again = await target().generate(request([user('hello')]), { signal: signal(), sampleId: 'alice' });
    assert.equal(again.text, 'turn 1: hello');
  });

  it('maps 429 (with Retry-After), 500, 401 and 404 to the usual kinds', async () => {
    const cases: [number, string][] = [
      [429, 'rate-limit'],
      [500, 'server'],
      [401, 'auth'],
      [404, 'not-found'],
    ];
    for (const [status, kind] of cases) {
      app.setBehavior({ faults: () => ({ type: 'status', status, retryAfter: '3' }) });
      const error = await callError(target().generate(request([user(`status ${status}`)]), { signal: signal(), sampleId: 's' }));
      assert.equal(error.kind, kind, `status ${status}`);
      assert.equal(error.extra.status, status);
      assert.match(error.message, new RegExp(`^HTTP ${status} from POST ${app.url}: fake error ${status}`));
      assert.equal(error.extra.retryAfterMs, status === 429 || status === 500 ? 3000 : undefined);
    }
  });

  it('through the middleware: a 429 is retried after the Retry-After the app asked for', async () => {
    app.setBehavior({ faults: (ctx) => (ctx.attemptForKey === 1 ? { type: 'status', status: 429, retryAfterMs: 700 } : undefined) });
    const clock = fakeClock();
    const model = new Model({ provider: target(), settings, clock });
    const outcome = await model.generate(request([user('busy app')]), { sampleId: 'r' });
    assert.equal(outcome.output?.text, 'turn 1: busy app');
    assert.deepEqual(outcome.attempts.map((a) => a.error?.kind ?? 'ok'), ['rate-limit', 'ok']);
    assert.ok((clock.sleeps[0] ?? 0) >= 700, `waited ${clock.sleeps[0]} ms`);
    assert.equal(outcome.costUsd, null, 'no usage and no price: cost unknown, not 0');
  });

  it('an answer where output finds nothing is a target error, not retried, quoting the answer', async () => {
    app.setBehavior({ respond: () => ({ answer: { text: 'here' } }) });
    const error = await callError(target().generate(request([user('miss')]), { signal: signal(), sampleId: 'm' }));
    assert.equal(error.kind, 'target');
    assert.equal(error.retryable, false);
    assert.match(error.message, /^support-bot: output "reply" found nothing in the answer: \{"answer":\{"text":"here"\}\}$/);
    const outcome = await new Model({ provider: target(), settings, clock: fakeClock() }).generate(request([user('miss again')]), { sampleId: 'm' });
    assert.equal(outcome.attempts.length, 1);
    assert.equal(outcome.error?.kind, 'target');
  });

  it('an answer that is not JSON, or a reply that is an object, is a target error', async () => {
    app.setBehavior({ faults: () => ({ type: 'bad-json' }) });
    const broken = await callError(target().generate(request([user('cut')]), { signal: signal() }));
    assert.equal(broken.kind, 'target');
    assert.match(broken.message, /answer from POST .* is not JSON: \{"reply": "cut/);
    app.setBehavior({ faults: undefined, respond: () => ({ reply: { text: 'nested' } }) });
    const nested = await callError(target().generate(request([user('obj')]), { signal: signal() }));
    assert.match(nested.message, /output "reply" found an object \(\{"text":"nested"\}\), not the reply text/);
  });

  it('a body that rendered JSON when built but not for this request is a target error, and nothing is sent', async () => {
    const p = target({ body: '{"session": {{ session | tojson }}, "message": "stop at {{ settings.stop | tojson }}"}' });
    const before = app.requests.length;
    const error = await callError(p.generate(request([user('hi')], { settings: { stop: ['END'] } }), { signal: signal() }));
    assert.equal(error.kind, 'target');
    assert.match(error.message, /^support-bot: the body template did not render JSON for this request: /);
    assert.equal(app.requests.length, before);
  });

  it('reads tool calls and usage with their paths', async () => {
    app.setBehavior({
      respond: () => ({
        reply: null,
        calls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'lookup', arguments: '{"id": 7}', id: 'c-2' },
          { name: 'broken', arguments: '{"id": ' },
        ],
        stats: { prompt_tokens: 12, completion_tokens: 5 },
      }),
    });
    const result = await target({ toolCalls: 'calls', usage: 'stats' }).generate(request([user('weather?')]), { signal: signal() });
    assert.equal(result.text, '');
    assert.deepEqual(result.finishReason, { unified: 'tool-calls' });
    assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 5 });
    assert.deepEqual(
      result.toolCalls.map((c) => [c.id, c.name, c.arguments, c.rawArguments]),
      [
        ['call_0', 'get_weather', { city: 'Paris' }, '{"city":"Paris"}'],
        ['c-2', 'lookup', { id: 7 }, '{"id": 7}'],
        ['call_2', 'broken', undefined, '{"id": '],
      ],
    );
    assert.ok(result.toolCalls[2]?.parseError, 'a malformed call is kept as data');
    app.setBehavior({ respond: () => ({ reply: 'x', calls: 'not a list' }) });
    const error = await callError(target({ toolCalls: 'calls' }).generate(request([user('bad calls')]), { signal: signal() }));
    assert.match(error.message, /toolCalls must be a list of \{name, arguments\}, found a string \("not a list"\) \(toolCalls: "calls"\)/);
  });

  it('resolves ${VAR} in headers from the environment at each call, and keeps the values out of outputs', async () => {
    app.setBehavior({ respond: (_body, ctx) => ({ reply: `you sent ${String(ctx.headers.authorization)} and ${String(ctx.headers['x-team'])}` }) });
    const env: Record<string, string | undefined> = { BOT_TOKEN: 'tok-first-0123456789' };
    const p = target({ env, headers: { Authorization: 'Bearer ${BOT_TOKEN}', 'X-Team': 'evals' } });
    assert.deepEqual([...(p.secrets ?? [])].sort(), ['Bearer tok-first-0123456789', 'tok-first-0123456789']);
    const outcome = await new Model({ provider: p, settings }).generate(request([user('who am i')]), { sampleId: 'h' });
    assert.equal(outcome.output?.text, `you sent ${REDACTED} and evals`);
    // The environment changes: the next call sends the new value, and scrubs it too.
    env.BOT_TOKEN = 'tok-second-9876543210';
    const before = app.requests.length;
    const second = await p.generate(request([user('again')]), { signal: signal(), sampleId: 'h' });
    assert.equal(app.requests[before]?.hadCredential, true);
    assert.equal(app.requests[before]?.credentialLength, 'tok-second-9876543210'.length);
    assert.equal(second.text, `you sent ${REDACTED} and evals`);
    delete env.BOT_TOKEN;
    const gone = await callError(p.generate(request([user('unset')]), { signal: signal() }));
    assert.equal(gone.kind, 'target');
    assert.match(gone.message, /environment variable BOT_TOKEN is not set/);
  });

  it('sends credentials of the URL as Basic auth, and never shows them', async () => {
    app.setBehavior({ faults: () => ({ type: 'status', status: 500 }) });
    const withUser = app.url.replace('http://', 'http://bot:pass-word-0123@');
    const p = target({ url: withUser });
    assert.ok(p.secrets?.includes('pass-word-0123'));
    const before = app.requests.length;
    const error = await callError(p.generate(request([user('creds')]), { signal: signal() }));
    assert.equal(app.requests[before]?.hadCredential, true);
    assert.ok(!error.message.includes('pass-word-0123'), error.message);
    assert.ok(error.message.startsWith(`HTTP 500 from POST ${app.url}:`), error.message);
  });

  it('reads ${VAR} in the URL when built, and keeps its value secret', async () => {
    app.setBehavior({ respond: (_body, ctx) => ({ reply: `path ${ctx.path}` }) });
    const p = target({ url: `${app.url}?key=\${APP_KEY}`, env: { APP_KEY: 'app-key-0123456789' } });
    assert.ok(p.secrets?.includes('app-key-0123456789'));
    const outcome = await new Model({ provider: p, settings }).generate(request([user('url var')]), { sampleId: 'u' });
    assert.equal(outcome.output?.text, `path /chat?key=${REDACTED}`);
    assert.throws(() => target({ url: '${APP_URL}', env: { APP_URL: 'not a url secret-value-1' } }), (e: unknown) => e instanceof InputError && !e.message.includes('secret-value-1') && /url "\$\{APP_URL\}" \(with its variables\) is not an http\(s\) URL/.test(e.message));
  });

  it('ends at once with aborted when the signal aborts a call in flight', async () => {
    app.setBehavior({ faults: () => ({ type: 'hang' }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await callError(target().generate(request([user('hang')]), { signal: controller.signal }));
    assert.equal(error.kind, 'aborted');
  });
});

describe('http target declarations that cannot work are refused when built', () => {
  const base: HttpTargetOptions = { name: 'bot', url: 'http://127.0.0.1:9/chat', body: CHAT_BODY, output: 'reply', env: {} };
  const refused = (options: Partial<HttpTargetOptions>, pattern: RegExp): void => {
    assert.throws(
      () => createHttpTarget({ ...base, ...options }),
      (error: unknown) => error instanceof InputError && pattern.test(error.message),
    );
  };

  it('a body that does not render JSON for a prompt with quotes, does not parse, or reads what a body is not given: the config loader\'s messages', () => {
    refused({ body: '{"message": "{{ prompt }}"}' }, /^bot: body: does not render to JSON for an example request \(.*\); write each value as \{\{ name \| tojson \}\}$/);
    refused({ body: '{"message": {{ prompt | tojson }' }, /^bot: body: not a valid template \(/);
    refused({ body: '{"message": {{ prompt | nosuchfilter }}}' }, /^bot: body: does not render \(/);
    refused({ body: '{"message": {{ message | tojson }}}' }, /^bot: body: reads message, which a body is not given/);
    // The same text as the loader's check, after where it is.
    const body = '{"message": "{{ prompt }}"}';
    refused({ body }, new RegExp(`^bot: body: ${escape(bodyTemplateProblem(body, 'bot') ?? 'accepted')}$`));
  });

  it('a body checked already (a config file\'s, at load) is not checked again', () => {
    assert.doesNotThrow(() => createHttpTarget({ ...base, body: '{"message": {{ message | tojson }}}', bodyChecked: true }));
    // One that does not parse still cannot be compiled.
    refused({ body: '{"message": {{ prompt | tojson }', bodyChecked: true }, /^bot: body: not a valid template \(/);
  });

  it('a JMESPath syntax error, in output or toolCalls', () => {
    refused({ output: 'choices[0' }, /^bot: output: "choices\[0" is not a JMESPath expression/);
    refused({ toolCalls: 'calls[?' }, /^bot: toolCalls: "calls\[\?" is not a JMESPath expression/);
  });

  it('a header naming an environment variable that is not set, and a URL that is not http', () => {
    refused({ headers: { Authorization: 'Bearer ${BOT_TOKEN}' } }, /^bot: headers\.Authorization: environment variable BOT_TOKEN is not set$/);
    refused({ headers: { 'X-Key': '${1BAD}' } }, /is not an environment variable reference/);
    refused({ url: 'ftp://example.org/chat' }, /must start with http:\/\/ or https:\/\//);
  });

  it('names the place the config file gives', () => {
    refused({ output: '[', locate: (field) => `assay.yaml:12: models.bot.http.${field}` }, /^assay\.yaml:12: models\.bot\.http\.output: /);
  });
});
