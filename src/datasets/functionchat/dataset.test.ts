import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { needsData, testDataDir } from '../../testing/test-data.js';
import { loadCallDecision, loadDialog, loadRubrics, loadSinglecall, loadSystemPrompt } from './dataset.js';
import { resolveVersion } from './versions.js';

const dataDir = testDataDir();
const fileSha = (relative: string): string => createHash('sha256').update(readFileSync(path.join(dataDir, 'functionchat', relative))).digest('hex');

const count = <T>(items: readonly T[], key: (item: T) => string): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
};

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});
/** A temp data dir holding one FunctionChat file of version v2.0.0. */
function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-functionchat-'));
  temps.push(dir);
  mkdirSync(path.join(dir, 'functionchat', 'v2.0.0'), { recursive: true });
  writeFileSync(path.join(dir, 'functionchat', 'v2.0.0', name), text);
  return dir;
}

async function rejectsInput(promise: Promise<unknown>, fragments: readonly string[], line?: number): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof InputError, `expected an InputError, got ${String(error)}`);
    for (const f of fragments) assert.ok(error.message.includes(f), `message lacks "${f}": ${error.message}`);
    if (line !== undefined) assert.equal(error.details?.line, line);
    return true;
  });
}

describe('FunctionChat loaders on the shipped data', { skip: needsData('functionchat') }, () => {
  for (const version of ['v2.0.0', 'paper-2024-09'] as const) {
    it(`${version} singlecall: 25 functions × 4 queries × 5 tool lists = 500 items`, async () => {
      const { value, checksums } = await loadSinglecall(dataDir, version);
      assert.equal(value.length, 500);
      assert.deepEqual(count(value, (i) => i.toolsType), { exact: 100, '4_random': 100, '4_close': 100, '8_random': 100, '8_close': 100 });
      assert.equal(new Set(value.map((i) => i.functionNum)).size, 25);
      assert.equal(new Set(value.map((i) => i.serialNum)).size, 100);
      assert.deepEqual(count(value, (i) => String(i.tools.length)), { '1': 100, '4': 200, '8': 200 });
      // every tool list offers the expected function
      assert.ok(value.every(({ groundTruth, tools }) => groundTruth.kind === 'call' && tools.some((t) => t.name === groundTruth.name)));
      assert.deepEqual(checksums, { [`functionchat/${version}/FunctionChat-Singlecall.jsonl`]: fileSha(`${version}/FunctionChat-Singlecall.jsonl`) });
    });

    it(`${version} dialog: 45 dialogs, 200 turns (call 70, completion 71, slot 36, relevance 23)`, async () => {
      const { value } = await loadDialog(dataDir, version);
      assert.equal(value.length, 200);
      assert.equal(new Set(value.map((t) => t.dialogNum)).size, 45);
      assert.deepEqual(count(value, (t) => t.typeOfOutput), { call: 70, completion: 71, slot: 36, relevance: 23 });
      assert.ok(value.every((t) => (t.typeOfOutput === 'call') === (t.groundTruth.kind === 'call')));
    });
  }

  it('dialog history keeps assistant tool calls and tool results as Messages', async () => {
    const { value } = await loadDialog(dataDir, 'v2.0.0');
    const turn = value.find((t) => t.dialogNum === 1 && t.turnNum === 3);
    assert.ok(turn);
    assert.deepEqual(turn.history.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'tool']);
    const call = turn.history[3];
    assert.ok(call?.role === 'assistant' && call.toolCalls?.length === 1);
    assert.equal(call.content, '');
    assert.deepEqual(call.toolCalls[0], {
      id: 'random_id',
      name: 'create_user',
      arguments: { name: 'John', email: 'john@example.com', password: 'password123' },
      rawArguments: '{"name": "John", "email": "john@example.com", "password": "password123"}',
    });
    assert.deepEqual(turn.history[4], { role: 'tool', toolCallId: 'random_id', name: 'create_user', content: '{"status": "success", "message": "사용자 계정이 성공적으로 생성되었습니다."}' });
  });

  it('v2.0.0 calldecision: 606 items, categories 100/100/100/306, each with one system message of its own', async () => {
    const { value } = await loadCallDecision(dataDir, 'v2.0.0');
    assert.equal(value.length, 606);
    assert.deepEqual(count(value, (i) => i.category), { CALL: 100, REJECT: 100, 'SLOT-all': 100, 'SLOT-some': 306 });
    assert.deepEqual(count(value, (i) => i.typeOfOutput), { call: 100, relevance: 100, slot: 406 });
    const prompt = (await loadSystemPrompt(dataDir, 'v2.0.0')).value;
    assert.ok(value.every((i) => i.messages[0]?.role === 'system' && i.messages.filter((m) => m.role === 'system').length === 1));
    // CALL and REJECT rows carry system_prompt.txt; the SLOT rows a copy that repeats one sentence (kept as shipped).
    assert.deepEqual(count(value, (i) => `${i.category}:${i.messages[0]?.content === prompt}`), { 'CALL:true': 100, 'REJECT:true': 100, 'SLOT-all:false': 100, 'SLOT-some:false': 306 });
  });

  it('reads the system prompt and the four rubrics trimmed, with the files\' sha256', async () => {
    const prompt = await loadSystemPrompt(dataDir, 'v2.0.0');
    assert.ok(prompt.value.startsWith('AI assistant로서') && !prompt.value.endsWith('\n'));
    const rubrics = await loadRubrics(dataDir, 'paper-2024-09');
    assert.deepEqual(Object.keys(rubrics.value), ['call', 'completion', 'slot', 'relevance']);
    assert.equal(rubrics.value.call.id, 'functionchat/paper-2024-09/call');
    assert.equal(rubrics.value.call.sha256, fileSha('paper-2024-09/rubric_call.txt'));
    assert.equal(rubrics.value.call.template, readFileSync(path.join(dataDir, 'functionchat/paper-2024-09/rubric_call.txt'), 'utf8').trim());
    assert.equal(Object.keys(rubrics.checksums).length, 4);
  });
});

describe('FunctionChat loaders on bad files', () => {
  const goodCall = JSON.stringify({
    serial_num: 1,
    category: 'CALL',
    input_messages: [{ role: 'user', content: 'hi' }],
    input_tools: [],
    type_of_output: 'call',
    ground_truth: { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    acceptable_arguments: null,
  });

  it('names the file and line of a line that is not JSON', async () => {
    const dir = tempFile('FunctionChat-CallDecision.jsonl', `${goodCall}\n\n{"serial_num": 2,\n`);
    await rejectsInput(loadCallDecision(dir, 'v2.0.0'), ['FunctionChat-CallDecision.jsonl: line 3: not valid JSON', 'expected a FunctionChat-CallDecision row'], 3);
  });

  it('names the line and the field of a row that does not fit the schema', async () => {
    const bad = goodCall.replace('"type_of_output":"call"', '"type_of_output":"answer"');
    const dir = tempFile('FunctionChat-CallDecision.jsonl', `${goodCall}\n${bad}\n`);
    await rejectsInput(loadCallDecision(dir, 'v2.0.0'), ['line 2: at $.type_of_output', 'expected a FunctionChat-CallDecision row'], 2);
  });

  it('rejects a call item whose ground truth has no tool call, and arguments that are not a JSON object', async () => {
    const noCall = goodCall.replace(/"ground_truth":\{.*\},"acceptable/, '"ground_truth":{"role":"assistant","content":"hello"},"acceptable');
    await rejectsInput(loadCallDecision(tempFile('FunctionChat-CallDecision.jsonl', noCall), 'v2.0.0'), ['line 1:', 'type_of_output is "call" but the ground truth has no tool call'], 1);
    const badArgs = goodCall.replace('"arguments":"{}"', '"arguments":"[1]"');
    await rejectsInput(loadCallDecision(tempFile('FunctionChat-CallDecision.jsonl', badArgs), 'v2.0.0'), ['line 1:', 'not a JSON object'], 1);
  });

  it('rejects a singlecall row whose ground truth is not {name, arguments} JSON', async () => {
    const row = {
      function_num: 1,
      function_name: 'f',
      query: [{ serial_num: 1, content: 'q' }],
      ground_truth: [{ serial_num: 1, content: '{"name": "f", "arguments": "{}"' }],
      acceptable_arguments: [{ serial_num: 1, content: null }],
      tools: [{ type: 'exact', content: [{ type: 'function', function: { name: 'f', description: '', parameters: {} } }] }],
    };
    await rejectsInput(loadSinglecall(tempFile('FunctionChat-Singlecall.jsonl', `${JSON.stringify(row)}\n`), 'v2.0.0'), ['line 1: ground_truth of serial_num 1 is not valid JSON'], 1);
  });

  it('says where it looked when a file is missing', async () => {
    const dir = tempFile('unrelated.txt', '');
    await rejectsInput(loadDialog(dir, 'v2.0.0'), ['FunctionChat-Dialog.jsonl: file not found', 'ASSAY_DATA_DIR']);
  });
});

describe('resolveVersion', () => {
  it('defaults to v2.0.0 and accepts the paper-era data', () => {
    assert.equal(resolveVersion('t', undefined, 'dialog'), 'v2.0.0');
    assert.equal(resolveVersion('t', 'paper-2024-09', 'singlecall'), 'paper-2024-09');
  });
  it('refuses an unknown version, listing the known ones', () => {
    assert.throws(() => resolveVersion('functionchat/dialog', 'v9', 'dialog'), (e: unknown) => e instanceof InputError && e.message.includes('unknown --bench-version "v9"') && e.message.includes('v2.0.0, paper-2024-09'));
  });
  it('refuses CallDecision for paper-2024-09', () => {
    assert.throws(() => resolveVersion('functionchat/calldecision', 'paper-2024-09', 'calldecision'), (e: unknown) => e instanceof InputError && e.message.includes('paper-2024-09 has no CallDecision file'));
  });
});
