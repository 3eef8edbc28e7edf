import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import type { GenerateResult, RoleGenerate, Score } from '../../core/index.js';
import { packageRoot } from '../../version.js';
import { groundednessTask } from './task.js';
import type { ScoredSample } from '../task.js';
import type { GroundednessGrade } from './judge-groundedness.js';
import { groundednessReadings } from './readings.js';

const sample = (id: string) => ({ id, target: null, metadata: {} });
const graded = (score: number): Score => {
  const grade: GroundednessGrade = { score, scores: [score], reasonings: ['r'], spread: 0 };
  return { value: score, answer: grade };
};

describe('groundedness readings (issue 25, item 4)', () => {
  it('grades 5, 3, 2, 4, a no verdict and an error at threshold 3: assay 1/4, the harm scale 2/4, Azure passes 3/6', () => {
    const rows: ScoredSample[] = [
      { sample: sample('a'), score: graded(5) },
      { sample: sample('b'), score: graded(3) },
      { sample: sample('c'), score: graded(2) },
      { sample: sample('d'), score: graded(4) },
      { sample: sample('e'), score: { value: null, answer: null, explanation: 'judge: no verdict' } },
      { sample: sample('f'), score: undefined },
    ];
    const { metrics, differing } = groundednessReadings(() => 3).read(rows, { options: {}, facts: undefined });
    // assay: below 3 → the 2 alone, over the 4 graded.
    assert.equal(metrics['assay']?.['defect_rate'], 0.25);
    // The harm resource's rule: 3 or below → the 3 and the 2.
    assert.equal(metrics['harm-scale']?.['defect_rate'], 0.5);
    // Azure: at least 3 → 5, 3, 4 over all six rows (the no verdict and the error do not pass).
    assert.equal(metrics['azure']?.['pass_rate'], 0.5);
    assert.equal(metrics['azure']?.['defect_rate'], 0.5);
    assert.equal(metrics['azure']?.['n'], 6);
    // Azure's mean skips unreadable scores: (5 + 3 + 2 + 4) / 4.
    assert.equal(metrics['azure']?.['mean_score'], 3.5);
    // The 3 (pass, defect, pass), the no verdict and the error (none, none, fail) differ.
    assert.equal(differing, 3);
  });
});

describe('groundedness readings through a scripted judge', () => {
  it('the judge grades 5, 3, 2, 4, answers one unreadably and fails on one: the same figures, by hand', async () => {
    const options = { task: { items: path.join(packageRoot, 'examples', 'groundedness.jsonl') } };
    const prepared = await groundednessTask.prepare({ dataDir: packageRoot, seed: 0, options });
    const samples = Array.from(prepared.samples).slice(0, 6);
    const plan = ['5', '3', '2', '4', 'unreadable', 'error'];
    const judge: RoleGenerate = async (_role, request) => {
      const marker = /answer number (\d)/.exec(String(request.messages[0]?.content));
      const said = plan[Number(marker?.[1])] as string;
      if (said === 'error') return { output: null, error: { kind: 'server', message: 'HTTP 503' } };
      const text = said === 'unreadable' ? 'It seems grounded.' : JSON.stringify({ reasoning: 'r', score: Number(said) });
      return { output: { text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] }, error: null };
    };
    const rows: ScoredSample[] = [];
    for (const [i, sample] of samples.entries()) {
      const answer: GenerateResult = { text: `answer number ${i}`, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] };
      const graded = await prepared.gradeWithJudge?.(sample, answer, judge, { repeats: 1, format: 'json', maxParseRetries: 0, temperature: 0, seed: 0, model: 'scripted:judge' });
      assert.ok(graded);
      rows.push({ sample, score: 'score' in graded ? graded.score : undefined });
    }
    const { metrics, differing } = groundednessReadings(() => 3).read(rows, { options, facts: undefined });
    assert.deepEqual(
      [metrics['assay']?.['defect_rate'], metrics['harm-scale']?.['defect_rate'], metrics['azure']?.['pass_rate'], metrics['azure']?.['mean_score'], differing],
      [0.25, 0.5, 0.5, 3.5, 3],
    );
    assert.deepEqual([metrics['assay']?.['no_verdict'], metrics['assay']?.['errors']], [1, 1]);
  });
});
