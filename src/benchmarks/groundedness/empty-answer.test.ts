import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { GenerateResult, RoleGenerate } from '../../core/index.js';
import { packageRoot } from '../../version.js';
import { groundednessTask } from './task.js';
import { groundednessMetrics } from './metrics.js';

const empty = (text: string): GenerateResult => ({ text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] });
const noJudge: RoleGenerate = async () => {
  throw new Error('the judge must not be asked about an empty answer');
};

describe('groundedness: an empty answer (issue 25, item 2)', () => {
  it('is graded 1 — a defect under any threshold — without the judge, and counted in empty_answers', async () => {
    const options = { task: { items: path.join(packageRoot, 'examples', 'groundedness.jsonl') } };
    const prepared = await groundednessTask.prepare({ dataDir: packageRoot, seed: 0, options });
    const [sample] = Array.from(prepared.samples);
    assert.ok(sample);
    const graded = await prepared.gradeWithJudge?.(sample, empty(' \n'), noJudge, { repeats: 1, format: 'json', maxParseRetries: 0, temperature: 0, seed: 0, model: 'scripted:judge' });
    assert.ok(graded && 'score' in graded);
    assert.equal(graded.score.value, 1);
    const m = groundednessMetrics([{ sample, score: graded.score }], 3);
    assert.deepEqual([m['defect_rate'], m['empty_answers'], m['graded']], [1, 1, 1]);
  });
});
