import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ModelCallError, toolCallFromRaw, user, type GenerateRequest } from '../../../core/index.js';
import { createScriptedProvider, type ScriptContext } from './scripted-provider.js';

const live = (sampleId?: string) => ({ signal: new AbortController().signal, ...(sampleId === undefined ? {} : { sampleId }) });
const ask = (text: string): GenerateRequest => ({ messages: [user(text)], settings: { temperature: 0 } });

describe('scripted provider', () => {
  it('defaults to id scripted:test, not cacheable; both can be set', () => {
    const plain = createScriptedProvider({ respond: () => 'x' });
    assert.equal(plain.id, 'scripted:test');
    assert.equal(plain.cacheable, false);
    const named = createScriptedProvider({ id: 'scripted:echo', cacheable: true, respond: () => 'x' });
    assert.equal(named.id, 'scripted:echo');
    assert.equal(named.cacheable, true);
  });

  it('turns a string into a full result', async () => {
    const provider = createScriptedProvider({ respond: (request) => `echo: ${request.messages[0]?.content ?? ''}` });
    assert.deepEqual(await provider.generate(ask('hi'), live('s1')), {
      text: 'echo: hi',
      toolCalls: [],
      finishReason: { unified: 'stop' },
      usage: {},
      warnings: [],
    });
  });

  it('fills the missing fields of a partial result (tool calls imply finish reason tool-calls)', async () => {
    const call = toolCallFromRaw('c1', 'lookup', '{"q":"x"}');
    const provider = createScriptedProvider({ respond: async () => ({ toolCalls: [call], usage: { inputTokens: 5 } }) });
    assert.deepEqual(await provider.generate(ask('hi'), live()), {
      text: '',
      toolCalls: [call],
      finishReason: { unified: 'tool-calls' },
      usage: { inputTokens: 5 },
      warnings: [],
    });
    const truncated = createScriptedProvider({ respond: () => ({ text: 'cut', finishReason: { unified: 'length', raw: 'length' } }) });
    assert.deepEqual((await truncated.generate(ask('hi'), live())).finishReason, { unified: 'length', raw: 'length' });
  });

  it('records every call, failed ones included, and tells the script its indexes', async () => {
    const contexts: Omit<ScriptContext, 'signal'>[] = [];
    const provider = createScriptedProvider({
      respond: (_request, { sampleId, callIndex, sampleCallIndex }) => {
        contexts.push({ sampleId, callIndex, sampleCallIndex });
        return callIndex === 1 ? new Error('boom') : 'ok';
      },
    });
    const first = ask('one');
    const second = ask('two');
    await provider.generate(first, live('a'));
    await assert.rejects(provider.generate(second, live('b')));
    await provider.generate(first, live('a'));
    assert.deepEqual(provider.calls, [
      { request: first, sampleId: 'a' },
      { request: second, sampleId: 'b' },
      { request: first, sampleId: 'a' },
    ]);
    assert.equal(provider.calls[0]?.request, first); // the request object itself, not a copy
    assert.deepEqual(contexts, [
      { sampleId: 'a', callIndex: 0, sampleCallIndex: 0 },
      { sampleId: 'b', callIndex: 1, sampleCallIndex: 0 },
      { sampleId: 'a', callIndex: 2, sampleCallIndex: 1 },
    ]);
  });

  it('throws a returned ModelCallError as is (e.g. a scripted 429), then answers', async () => {
    const limited = new ModelCallError('rate-limit', 'slow down', { status: 429, retryAfterMs: 1500 });
    const provider = createScriptedProvider({ respond: (_r, { sampleCallIndex }) => (sampleCallIndex === 0 ? limited : 'fine') });
    await assert.rejects(provider.generate(ask('x'), live('s')), (error: unknown) => {
      assert.equal(error, limited);
      return true;
    });
    assert.equal((await provider.generate(ask('x'), live('s'))).text, 'fine');
  });

  it('throws a thrown ModelCallError as is', async () => {
    const auth = new ModelCallError('auth', 'bad key', { status: 401 });
    const provider = createScriptedProvider({
      respond: async () => {
        throw auth;
      },
    });
    await assert.rejects(provider.generate(ask('x'), live()), (error: unknown) => error === auth);
  });

  it('turns any other error, returned or thrown, into a server error', async () => {
    const returned = createScriptedProvider({ respond: () => new TypeError('bad shape') });
    await assert.rejects(returned.generate(ask('x'), live()), (error: unknown) => {
      assert.ok(error instanceof ModelCallError);
      assert.equal(error.kind, 'server');
      assert.equal(error.message, 'scripted:test: bad shape');
      return true;
    });
    const thrown = createScriptedProvider({
      respond: () => {
        throw new Error('crashed');
      },
    });
    await assert.rejects(thrown.generate(ask('x'), live()), { name: 'ModelCallError', kind: 'server', message: 'scripted:test: crashed' });
  });

  it('fails a pending call when its signal aborts, with the abort reason when it is a ModelCallError', async () => {
    const never = createScriptedProvider({ respond: () => new Promise<string>(() => {}) });
    const byTimeout = new AbortController();
    const pending = never.generate(ask('x'), { signal: byTimeout.signal });
    const reason = new ModelCallError('timeout', 'no answer within 10 ms');
    byTimeout.abort(reason);
    await assert.rejects(pending, (error: unknown) => error === reason);

    const byUser = new AbortController();
    const stopped = never.generate(ask('x'), { signal: byUser.signal });
    byUser.abort();
    await assert.rejects(stopped, { name: 'ModelCallError', kind: 'aborted' });

    // AbortSignal.timeout's timer is unref'd: with nothing else pending, the test process could see
    // its event loop empty before the timer fires (it did on a loaded machine: "Promise resolution
    // is still pending but the event loop has already resolved"). A ref'd timer keeps it alive.
    const keepAlive = setTimeout(() => {}, 10_000);
    try {
      await assert.rejects(never.generate(ask('x'), { signal: AbortSignal.timeout(5) }), { name: 'ModelCallError', kind: 'timeout' });
    } finally {
      clearTimeout(keepAlive);
    }
  });

  it('refuses an already aborted call but still records it', async () => {
    const controller = new AbortController();
    controller.abort();
    let called = false;
    const provider = createScriptedProvider({
      respond: () => {
        called = true;
        return 'x';
      },
    });
    await assert.rejects(provider.generate(ask('x'), { signal: controller.signal, sampleId: 'z' }), { kind: 'aborted' });
    assert.equal(called, false);
    assert.equal(provider.calls.length, 1);
  });
});
