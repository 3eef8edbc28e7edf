import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InputError, ModelCallError, user, type GenerateRequest } from '../../../core/index.js';
import { createReplayProvider } from './replay-provider.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-replay-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
/** Writes `lines` joined by `eol` to a fresh file and returns its path. */
function replayFile(lines: readonly string[], eol = '\n'): string {
  const file = join(dir, `outputs-${fileCount++}.jsonl`);
  writeFileSync(file, lines.join(eol));
  return file;
}

const request: GenerateRequest = { messages: [user('What is the weather in Paris?')], settings: {} };
const live = (sampleId?: string) => ({ signal: new AbortController().signal, ...(sampleId === undefined ? {} : { sampleId }) });

const toolCallLine = {
  id: 's2',
  message: {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_b', type: 'function', function: { name: 'broken', arguments: '{"city":' } },
    ],
  },
  usage: { prompt_tokens: 12, completion_tokens: 7 },
  model: 'gpt-x-2024',
};

describe('replay provider: a good file', () => {
  const file = replayFile([
    JSON.stringify({ id: 's1', output: 'yes' }),
    '',
    JSON.stringify(toolCallLine),
    '   ',
    JSON.stringify({ id: 's3', output: 'cut sho', finish_reason: 'length' }),
    '',
  ]);
  const provider = createReplayProvider({ path: file });

  it('has the replay id, is not cacheable and lists the recorded samples', () => {
    assert.equal(provider.id, `replay:${file}`);
    assert.equal(provider.cacheable, false);
    assert.equal(provider.specVersion, 'v1');
    assert.deepEqual(provider.sampleIds, ['s1', 's2', 's3']);
  });

  it('returns a text output with empty usage and the line as raw response', async () => {
    const result = await provider.generate(request, live('s1'));
    assert.equal(result.text, 'yes');
    assert.deepEqual(result.toolCalls, []);
    assert.deepEqual(result.finishReason, { unified: 'stop' });
    assert.deepEqual(result.usage, {});
    assert.deepEqual(result.rawResponse, { id: 's1', output: 'yes' });
    assert.equal(result.responseModel, undefined);
  });

  it('returns tool calls, keeping malformed arguments as data, with usage and model', async () => {
    const result = await provider.generate(request, live('s2'));
    assert.equal(result.text, '');
    assert.equal(result.toolCalls.length, 2);
    assert.deepEqual(result.toolCalls[0], { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' });
    const broken = result.toolCalls[1];
    assert.equal(broken?.name, 'broken');
    assert.equal(broken?.arguments, undefined);
    assert.equal(broken?.rawArguments, '{"city":');
    assert.equal(typeof broken?.parseError, 'string');
    assert.deepEqual(result.finishReason, { unified: 'tool-calls' });
    assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 7 });
    assert.equal(result.responseModel, 'gpt-x-2024');
    assert.deepEqual(result.rawResponse, toolCallLine);
  });

  it('maps a recorded finish_reason and keeps it raw', async () => {
    const result = await provider.generate(request, live('s3'));
    assert.deepEqual(result.finishReason, { unified: 'length', raw: 'length' });
  });

  it('fails one sample with missing-output when the file has no line for it', async () => {
    await assert.rejects(provider.generate(request, live('s9')), (error: unknown) => {
      assert.ok(error instanceof ModelCallError);
      assert.equal(error.kind, 'missing-output');
      assert.equal(error.message, `replay file ${file} has no output for sample s9`);
      assert.equal(error.retryable, false);
      return true;
    });
    // The provider still answers other samples afterwards.
    assert.equal((await provider.generate(request, live('s1'))).text, 'yes');
  });

  it('uses sampleIdOf when the options carry no sample id, and refuses a call with neither', async () => {
    const withFallback = createReplayProvider({ path: file, sampleIdOf: () => 's3' });
    assert.equal((await withFallback.generate(request, live())).text, 'cut sho');
    // An explicit sample id wins over the fallback.
    assert.equal((await withFallback.generate(request, live('s1'))).text, 'yes');
    await assert.rejects(provider.generate(request, live()), { name: 'ModelCallError', kind: 'unsupported' });
  });

  it('refuses an already aborted call', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(provider.generate(request, { signal: controller.signal, sampleId: 's1' }), { kind: 'aborted' });
  });
});

describe('replay provider: file format details', () => {
  it('reads CRLF files and a leading byte-order mark', async () => {
    const file = replayFile(['\uFEFF' + JSON.stringify({ id: 'a', output: 'one' }), '', JSON.stringify({ id: 'b', output: 'two' })], '\r\n');
    const provider = createReplayProvider({ path: file });
    assert.deepEqual(provider.sampleIds, ['a', 'b']);
    assert.equal((await provider.generate(request, live('b'))).text, 'two');
  });

  it('accepts arguments recorded as an object and fills a missing tool call id', async () => {
    const line = { id: 'x', message: { content: 'calling', tool_calls: [{ function: { name: 'f', arguments: { n: 1 } } }] } };
    const provider = createReplayProvider({ path: replayFile([JSON.stringify(line)]) });
    const result = await provider.generate(request, live('x'));
    assert.equal(result.text, 'calling');
    assert.deepEqual(result.toolCalls, [{ id: 'call_0', name: 'f', arguments: { n: 1 }, rawArguments: '{"n":1}' }]);
  });

  it('treats an empty file as a file with no outputs', async () => {
    const provider = createReplayProvider({ path: replayFile(['', '']) });
    assert.deepEqual(provider.sampleIds, []);
    await assert.rejects(provider.generate(request, live('a')), { kind: 'missing-output' });
  });
});

describe('replay provider: malformed lines are InputErrors with file and line', () => {
  const good = JSON.stringify({ id: 'first', output: 'ok' });
  // Each bad line goes on line 3, after a good line and a blank line (blank lines still count).
  const cases: readonly { readonly name: string; readonly line: string; readonly mentions: RegExp }[] = [
    { name: 'bad JSON', line: '{"id": "a", "output": ', mentions: /not valid JSON/ },
    { name: 'not an object', line: '["a", "b"]', mentions: /expected a JSON object/ },
    { name: 'missing id', line: '{"output": "yes"}', mentions: /"id" must be a non-empty string/ },
    { name: 'non-string id', line: '{"id": 7, "output": "yes"}', mentions: /"id" must be a non-empty string/ },
    { name: 'neither output nor message', line: '{"id": "a", "text": "yes"}', mentions: /neither "output".*nor "message"/ },
    { name: 'both output and message', line: '{"id": "a", "output": "y", "message": {"content": "y"}}', mentions: /both "output" and "message"/ },
    { name: 'non-string output', line: '{"id": "a", "output": 3}', mentions: /"output" of "a" must be a string/ },
    { name: 'non-object message', line: '{"id": "a", "message": "hi"}', mentions: /"message" of "a" must be an object/ },
    { name: 'non-string content', line: '{"id": "a", "message": {"content": 5}}', mentions: /"message.content" of "a"/ },
    { name: 'tool_calls not an array', line: '{"id": "a", "message": {"tool_calls": {}}}', mentions: /"message.tool_calls" of "a" must be an array/ },
    { name: 'tool call without function name', line: '{"id": "a", "message": {"tool_calls": [{"function": {"arguments": "{}"}}]}}', mentions: /tool_calls\[0\].*"function.name"/ },
    { name: 'bad usage', line: '{"id": "a", "output": "y", "usage": {"prompt_tokens": "12"}}', mentions: /"usage.prompt_tokens" of "a" must be a non-negative integer/ },
    { name: 'non-string model', line: '{"id": "a", "output": "y", "model": 4}', mentions: /"model" of "a" must be a string/ },
    { name: 'duplicate id', line: '{"id": "first", "output": "again"}', mentions: /duplicate id "first" \(first on line 1\)/ },
  ];

  for (const { name, line, mentions } of cases) {
    it(name, () => {
      const file = replayFile([good, '', line, good.replace('first', 'later')]);
      assert.throws(
        () => createReplayProvider({ path: file }),
        (error: unknown) => {
          assert.ok(error instanceof InputError, `expected InputError, got ${String(error)}`);
          assert.ok(error.message.startsWith(`${file}:3: `), error.message);
          assert.match(error.message, mentions);
          assert.ok(!error.message.includes('\n'), 'one-line message');
          assert.deepEqual(error.details, { file, line: 3 });
          return true;
        },
      );
    });
  }

  it('an unreadable file', () => {
    const file = join(dir, 'does-not-exist.jsonl');
    assert.throws(() => createReplayProvider({ path: file }), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.equal(error.message, `${file}: cannot read replay file (ENOENT)`);
      return true;
    });
  });
});
