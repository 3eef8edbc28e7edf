import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunRecord } from '../store/records.js';
import { judgeFlagsRecorded, judgeSpecOf } from './judge-spec.js';

test('judgeSpecOf: the flags given, else the defaults (repeats: the task\'s own, harm 5)', () => {
  assert.deepEqual(judgeSpecOf('big', 'cases', {}), { model: 'big', repeats: 1, format: 'text', maxParseRetries: 2, temperature: 0.1 });
  assert.equal(judgeSpecOf('big', 'harm/system-prompt-leakage', {}).repeats, 5);
  assert.deepEqual(judgeSpecOf('big', 'harm/system-prompt-leakage', { judgeRepeats: 3, judgeFormat: 'json', judgeTemperature: 0, judgeParseRetries: 0, judgeMaxTokens: 64 }), {
    model: 'big', repeats: 3, format: 'json', maxParseRetries: 0, temperature: 0, maxTokens: 64,
  });
});

test('judgeFlagsRecorded: the settings the member runs recorded; repeats only when one differs from its task\'s default', () => {
  const run = (task: string, judge: RunRecord['judge']): RunRecord => ({ task, judge } as unknown as RunRecord);
  const judge = { model: 'big', format: 'json' as const, maxParseRetries: 0, temperature: 0.5, selfGrading: false };
  assert.deepEqual(judgeFlagsRecorded([run('cases', null)]), {});
  // harm's default 5 and cases' 1: nothing asked, each entry keeps its task's default.
  assert.deepEqual(judgeFlagsRecorded([run('cases', null), run('harm/system-prompt-leakage', { ...judge, repeats: 5 }), run('cases', { ...judge, repeats: 1 })]), { judgeFormat: 'json', judgeTemperature: 0.5, judgeParseRetries: 0 });
  assert.deepEqual(judgeFlagsRecorded([run('cases', { ...judge, repeats: 3, maxTokens: 64 })]), { judgeRepeats: 3, judgeFormat: 'json', judgeTemperature: 0.5, judgeParseRetries: 0, judgeMaxTokens: 64 });
});
