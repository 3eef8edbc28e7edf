import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, ModelCallError, system, user, type GenerateRequest } from '../../../core/index.js';
import { Model } from '../../middleware/model.js';
import { createModuleTarget } from './module-target.js';

const request = (text: string, extra: Partial<GenerateRequest> = {}): GenerateRequest => ({ messages: [system('Be brief.'), user(text)], settings: {}, ...extra });

async function callError(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ModelCallError, `expected ModelCallError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('module target', () => {
  let dir: string;
  const write = (name: string, source: string): string => {
    const file = join(dir, name);
    writeFileSync(file, source);
    return file;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-module-target-'));
    // An agent function: echoes what it was given, calls a tool when asked about weather, and
    // throws or misbehaves on cue.
    write(
      'agent.mjs',
      `export default async function agent(request) {
        if (request.prompt === 'throw') throw new Error('the agent broke\\non two lines');
        if (request.prompt === 'shape') return { reply: 'wrong field' };
        if (request.prompt === 'slow') return new Promise(() => {});
        if (request.prompt.includes('weather')) return { text: '', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };
        return {
          text: \`\${request.model} heard "\${request.prompt}" (system: \${request.system}, tools: \${request.tools.map((t) => t.function.name).join(',')}, session: \${request.session}, sample: \${request.sample_id})\`,
          usage: { inputTokens: 7, outputTokens: 3 },
        };
      }`,
    );
    write('no-default.mjs', 'export const answer = () => ({ text: "x" });');
    write('broken.mjs', 'export default (;');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('calls the default export with the request fields, relative to its base folder', async () => {
    const target = await createModuleTarget({ name: 'my-agent', path: './agent.mjs', baseDir: dir });
    assert.equal(target.id, 'my-agent');
    assert.equal(target.cacheable, true);
    const tools = [{ name: 'search', description: 'search', parameters: { type: 'object' } }];
    const result = await target.generate(request('hello', { tools }), { signal: new AbortController().signal, sampleId: 'q1' });
    assert.match(result.text, /^my-agent heard "hello" \(system: Be brief\., tools: search, session: [0-9a-f]{12}-[0-9a-f]{16}, sample: q1\)$/);
    assert.deepEqual(result.usage, { inputTokens: 7, outputTokens: 3 });
    const weather = await target.generate(request('weather in Paris?'), { signal: new AbortController().signal });
    assert.deepEqual(weather.toolCalls.map((c) => [c.name, c.arguments]), [['get_weather', { city: 'Paris' }]]);
  });

  it('through the middleware: usage and the price give the cost', async () => {
    const target = await createModuleTarget({ name: 'my-agent', path: join(dir, 'agent.mjs') });
    const model = new Model({ provider: target, settings: { concurrency: 1, timeoutMs: 1000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false, price: { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } } });
    const outcome = await model.generate(request('hi'), { sampleId: 's' });
    assert.equal(outcome.costUsd, 7 + 3 * 2);
  });

  it('a thrown error or an answer of the wrong shape is a target error', async () => {
    const target = await createModuleTarget({ name: 'my-agent', path: join(dir, 'agent.mjs') });
    const thrown = await callError(target.generate(request('throw'), { signal: new AbortController().signal }));
    assert.equal(thrown.kind, 'target');
    assert.equal(thrown.message, 'my-agent: the function threw: the agent broke on two lines');
    const shape = await callError(target.generate(request('shape'), { signal: new AbortController().signal }));
    assert.equal(shape.message, 'my-agent: the answer\'s "text" found nothing');
  });

  it('an abort (the middleware\'s timeout) ends a call the function never finishes', async () => {
    const target = await createModuleTarget({ name: 'my-agent', path: join(dir, 'agent.mjs') });
    const model = new Model({ provider: target, settings: { concurrency: 1, timeoutMs: 50, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false } });
    const outcome = await model.generate(request('slow'), { sampleId: 's' });
    assert.equal(outcome.error?.kind, 'timeout');
  });

  it('a missing file, one that does not load, or one without a default export is refused when built', async () => {
    const refused = async (path: string, pattern: RegExp): Promise<void> => {
      await assert.rejects(createModuleTarget({ name: 'bad', path, baseDir: dir }), (error: unknown) => error instanceof InputError && pattern.test(error.message));
    };
    await refused('nope.mjs', /^bad: module: no such file .*nope\.mjs$/);
    await refused('broken.mjs', /^bad: module: .*broken\.mjs does not load: /);
    await refused('no-default.mjs', /^bad: module: .*no-default\.mjs has no default export function/);
  });
});
