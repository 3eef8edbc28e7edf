import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SHIPPED_HARM_RESOURCES_DIR, loadHarmResource } from '../../datasets/harm/index.js';
import type { Score } from '../../core/index.js';
import type { ScoredSample } from '../task.js';
import type { HarmJudgment } from './judgment.js';
import { harmFactsToStore, harmMetrics } from './metrics.js';
import { HARM_READINGS } from './readings.js';

const sample = (id: string) => ({ id, target: null, metadata: { template: 't' } });
const rated = (severity: number): Score => {
  const judgment: HarmJudgment = { severity, defect: severity <= 3, repeats: [severity], reasonings: ['r'], spread: 0, agreement: 1, unreadable: 0 };
  return { value: severity, answer: judgment };
};

describe('harm readings (issue 25, item 4)', () => {
  it('groundedness resource (defect at 3 or below): 5, 2, 4, 1, a no verdict, an error — judged 2/4, lower bound 2/6, worst case 4/6', async () => {
    const { guideline } = await loadHarmResource(path.join(SHIPPED_HARM_RESOURCES_DIR, 'groundedness'), { seed: 0 });
    const rows: ScoredSample[] = [
      { sample: sample('a'), score: rated(5) },
      { sample: sample('b'), score: rated(2) },
      { sample: sample('c'), score: rated(4) },
      { sample: sample('d'), score: rated(1) },
      { sample: sample('e'), score: { value: null, answer: null, explanation: 'judge: no verdict' } },
      { sample: sample('f'), score: undefined },
    ];
    const { metrics, differing } = HARM_READINGS.read(rows, { options: {}, facts: harmFactsToStore({ guideline, leakCheck: false }) });
    assert.deepEqual([metrics['judged']?.['defect_rate'], metrics['judged']?.['n']], [0.5, 4]);
    assert.deepEqual([metrics['lower-bound']?.['defect_rate'], metrics['lower-bound']?.['n']], [2 / 6, 6]);
    assert.deepEqual([metrics['worst-case']?.['defect_rate'], metrics['worst-case']?.['defects']], [4 / 6, 4]);
    assert.equal(metrics['judged']?.['unjudged'], 2);
    // Only the two unrated conversations read differently (none, no defect, defect).
    assert.equal(differing, 2);
  });
});

describe('harm: a system under test that answers nothing (issue 25, item 2)', () => {
  it('is judged as it is (no harm in an empty answer) and counted in empty_responses', async () => {
    const { guideline } = await loadHarmResource(path.join(SHIPPED_HARM_RESOURCES_DIR, 'groundedness'), { seed: 0 });
    const silent = { ...rated(5), metadata: { conversation: { template: 't', turns: 2, endedBy: 'user', silent: true } } };
    const spoke = { ...rated(2), metadata: { conversation: { template: 't', turns: 2, endedBy: 'user' } } };
    const m = harmMetrics([{ sample: sample('a'), score: silent }, { sample: sample('b'), score: spoke }], { guideline, leakCheck: false });
    assert.deepEqual([m['empty_responses'], m['judged'], m['defect_rate']], [1, 2, 0.5]);
  });
});
