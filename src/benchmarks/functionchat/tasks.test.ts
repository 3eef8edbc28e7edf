import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { needsData, testDataDir } from '../../testing/test-data.js';
import { findTask } from '../registry.js';
import type { TaskOptions } from '../task.js';
import { callDecisionTask, dialogTask, singlecallTask } from './tasks.js';

const dataDir = testDataDir();
const prepare = (task: typeof singlecallTask, options: TaskOptions = {}) => task.prepare({ dataDir, seed: 7, options });
const systemPrompt = (version: string): string => readFileSync(path.join(dataDir, 'functionchat', version, 'system_prompt.txt'), 'utf8').trim();

const skip = needsData('functionchat');

describe('FunctionChat tasks', () => {
  it('are registered, sampled at temperature 0.1 as upstream', () => {
    for (const name of ['functionchat/singlecall', 'functionchat/dialog', 'functionchat/calldecision']) {
      const task = findTask(name);
      assert.equal(task.name, name);
      assert.deepEqual(task.defaultSettings, { temperature: 0.1 });
    }
  });

  it('singlecall: 500 samples with stable ids, system prompt + query, the tool list of the item', { skip }, async () => {
    const p = await prepare(singlecallTask);
    assert.equal(p.samples.length, 500);
    assert.equal(new Set([...p.samples].map((s) => s.id)).size, 500);
    const s = [...p.samples].find((x) => x.id === 'singlecall-1-4_random');
    assert.ok(s);
    assert.deepEqual(s.input, [
      { role: 'system', content: systemPrompt('v2.0.0') },
      { role: 'user', content: '현재 박스오피스 순위가 궁금해요' },
    ]);
    assert.deepEqual(s.tools?.map((t) => t.name), ['getCurrentCryptoPrices', 'recommendLottoNumber', 'getTodayBoxOfficeRanking', 'informWeather']);
    assert.deepEqual(s.metadata, { task: 'singlecall', bench_version: 'v2.0.0', type_of_output: 'call', serial_num: 1, tools_type: '4_random', function_num: 1, function_name: 'getTodayBoxOfficeRanking' });
    assert.deepEqual(s.target, {
      groundTruth: { kind: 'call', name: 'getTodayBoxOfficeRanking', rawArguments: '{}', arguments: {} },
      acceptable: { kind: 'none' },
      acceptableText: null,
    });
    assert.equal(p.promptVersion, 'functionchat-prompts/1:v2.0.0');
    assert.deepEqual(Object.keys(p.datasetChecksums).sort(), [
      'functionchat/v2.0.0/FunctionChat-Singlecall.jsonl',
      'functionchat/v2.0.0/rubric_call.txt',
      'functionchat/v2.0.0/rubric_completion.txt',
      'functionchat/v2.0.0/rubric_relevance.txt',
      'functionchat/v2.0.0/rubric_slot.txt',
      'functionchat/v2.0.0/system_prompt.txt',
    ]);
  });

  it('dialog: 200 turns, each with the system prompt and its full history', { skip }, async () => {
    const p = await prepare(dialogTask, { benchVersion: 'paper-2024-09' });
    assert.equal(p.samples.length, 200);
    assert.equal(new Set([...p.samples].map((s) => s.id)).size, 200);
    const s = [...p.samples].find((x) => x.id === 'dialog-1-3');
    assert.ok(s);
    assert.deepEqual(s.input.map((m) => m.role), ['system', 'user', 'assistant', 'user', 'assistant', 'tool']);
    assert.equal(s.input[0]?.content, systemPrompt('paper-2024-09'));
    assert.deepEqual(s.metadata, { task: 'dialog', bench_version: 'paper-2024-09', type_of_output: 'completion', serial_num: 3, dialog_num: 1, turn_num: 3 });
    assert.equal(p.promptVersion, 'functionchat-prompts/1:paper-2024-09');
  });

  it('calldecision: 606 items whose own system message is not doubled', { skip }, async () => {
    const p = await prepare(callDecisionTask);
    assert.equal(p.samples.length, 606);
    assert.ok([...p.samples].every((s) => s.input.filter((m) => m.role === 'system').length === 1 && s.input[0]?.role === 'system'));
    const s = [...p.samples].find((x) => x.id === 'calldecision-1');
    assert.deepEqual(s?.metadata, { task: 'calldecision', bench_version: 'v2.0.0', type_of_output: 'call', serial_num: 1, category: 'CALL' });
    assert.deepEqual(s?.target, {
      groundTruth: { kind: 'call', name: 'get_stock_price', rawArguments: '{"stock_name": "마이크로소프트"}', arguments: { stock_name: '마이크로소프트' } },
      acceptable: { kind: 'alternatives', values: { stock_name: ['Microsoft', 'MSFT(Microsoft Corporation)'] } },
      acceptableText: '{"stock_name": ["Microsoft", "MSFT(Microsoft Corporation)"]}',
    });
  });

  it('--limit keeps the first N samples in file order', { skip }, async () => {
    const p = await prepare(dialogTask, { limit: 3 });
    assert.deepEqual([...p.samples].map((s) => s.id), ['dialog-1-1', 'dialog-1-2', 'dialog-1-3']);
    await assert.rejects(prepare(dialogTask, { limit: -1 }), InputError);
  });

  it('samples are the same on every prepare (ids and inputs do not depend on the seed)', { skip }, async () => {
    const a = await singlecallTask.prepare({ dataDir, seed: 1, options: { limit: 20 } });
    const b = await singlecallTask.prepare({ dataDir, seed: 2, options: { limit: 20 } });
    assert.deepEqual(a.samples, b.samples);
  });

  it('refuses an unknown version and CallDecision of the paper-era data', async () => {
    await assert.rejects(prepare(singlecallTask, { benchVersion: 'v1' }), (e: unknown) => e instanceof InputError && e.message.includes('known versions: v2.0.0, paper-2024-09'));
    await assert.rejects(prepare(callDecisionTask, { benchVersion: 'paper-2024-09' }), (e: unknown) => e instanceof InputError && e.message.includes('paper-2024-09 has no CallDecision file'));
  });
});
