import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Score } from '../../core/index.js';
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
