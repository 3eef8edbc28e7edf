import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { RoleGenerate, Sample, Score } from '../../core/index.js';
import type { Rubric } from '../../judges/judge-request.js';
import { loadShippedRubric } from '../../judges/shipped-rubrics.js';
import { wilsonInterval } from '../../metrics/intervals.js';
import { judgeGroundedness, type GroundednessGrade } from './judge-groundedness.js';
import { groundednessMetrics } from './metrics.js';

const item = { question: 'When did the bridge open?', context: 'The bridge opened on Monday.', answer: 'It opened on Monday.' };
let rubric: Rubric;
before(async () => {
  rubric = await loadShippedRubric('groundedness/groundedness');
});

/** A judge answering each call in turn from a list; records the steps and seeds. */
function judgeAnswering(texts: readonly (string | null)[]): { generate: RoleGenerate; made: [string, number | undefined][] } {
  const made: [string, number | undefined][] = [];
  let i = 0;
  const generate: RoleGenerate = async (_role, request, step) => {
    made.push([step, request.settings.seed]);
    const text = texts[i++];
    if (text === undefined) throw new Error(`no answer for call ${i}`);
    if (text === null) return { output: null, error: { kind: 'auth', message: '401' } };
    return { output: { text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] }, error: null };
  };
  return { generate, made };
}
const settings = { repeats: 1, maxParseRetries: 1, seed: 0, temperature: 0 };

describe('judgeGroundedness', () => {
  it('reads {reasoning, score}; the rubric sees question, context and answer fenced', async () => {
    const { generate, made } = judgeAnswering(['{"reasoning": "stated in the context", "score": 5}']);
    assert.deepEqual(await judgeGroundedness(generate, item, rubric, settings), {
      kind: 'judged',
      grade: { score: 5, scores: [5], reasonings: ['stated in the context'], spread: 0 },
    });
    assert.deepEqual(made, [['groundedness', 0]]);
  });

  it('three repeats: the median, the spread; a score outside 1–5 is re-asked, then it counts as unusable', async () => {
    const { generate } = judgeAnswering(['{"reasoning": "a", "score": 2}', '{"reasoning": "b", "score": 5}', '{"reasoning": "c", "score": 4}']);
    const judged = await judgeGroundedness(generate, item, rubric, { ...settings, repeats: 3 });
    assert.deepEqual(judged.kind === 'judged' ? [judged.grade.score, judged.grade.spread] : judged, [4, 3]);
    // Repeat 1 answers 7 twice (unusable), repeats 2 and 3 are usable: 2 of 3 > half → 3 and 4, no
    // majority: the upper middle reading 4 (away from the defect: low scores are the defects), never 3.5.
    const sevens = judgeAnswering(['{"reasoning": "a", "score": 7}', '{"reasoning": "b", "score": 3}', '{"reasoning": "c", "score": 4}', '{"reasoning": "a", "score": 7}']);
    const out = await judgeGroundedness(sevens.generate, item, rubric, { ...settings, repeats: 3 });
    assert.deepEqual(out.kind === 'judged' ? out.grade.scores.slice().sort() : out, [3, 4]);
    assert.equal(out.kind === 'judged' ? out.grade.score : null, 4);
  });

  it('one usable grading of two is no verdict; a failed call is an error', async () => {
    const half = judgeAnswering(['{"reasoning": "a", "score": 4}', 'score: 4', 'still not JSON']);
    const judged = await judgeGroundedness(half.generate, item, rubric, { ...settings, repeats: 2 });
    assert.equal(judged.kind, 'no-verdict');
    assert.match(judged.kind === 'no-verdict' ? judged.reason : '', /^1 of 2 grading\(s\) usable/);
    assert.deepEqual(await judgeGroundedness(judgeAnswering([null]).generate, item, rubric, settings), { kind: 'error', error: { kind: 'auth', message: '401' } });
  });

  it('repeats [2, 2, 3, 3]: the level 3 (a tie taken away from the defect), not a defect at threshold 3', async () => {
    const { generate } = judgeAnswering([2, 3, 2, 3].map((s, i) => `{"reasoning": "r${i}", "score": ${s}}`));
    const judged = await judgeGroundedness(generate, item, rubric, { ...settings, repeats: 4 });
    assert.equal(judged.kind === 'judged' ? judged.grade.score : judged, 3);
    const m = groundednessMetrics([{ sample: { id: 'a', target: null, metadata: {} }, score: { value: 3, answer: judged.kind === 'judged' ? judged.grade : null } as Score }], 3);
    assert.deepEqual([m['defect_rate'], m['distribution'], m['no_majority_share']], [0, { '3': 1 }, 1]);
  });

  it('a strict majority is the score: [1, 4, 4] → 4, [2, 2, 2, 5] → 2', async () => {
    for (const [scores, expected] of [[[1, 4, 4], 4], [[2, 5, 2, 2], 2]] as const) {
      const { generate } = judgeAnswering(scores.map((s) => `{"reasoning": "r", "score": ${s}}`));
      const judged = await judgeGroundedness(generate, item, rubric, { ...settings, repeats: scores.length });
      assert.equal(judged.kind === 'judged' ? judged.grade.score : judged, expected);
    }
  });
});

describe('groundednessMetrics', () => {
  const row = (score: number | null | undefined): { sample: Sample; score: Score | undefined } => {
    const sample: Sample = { id: String(Math.random()), input: [], target: null, metadata: {} };
    if (score === undefined) return { sample, score: undefined };
    if (score === null) return { sample, score: { value: null, answer: null, explanation: 'unusable' } };
    const grade: GroundednessGrade = { score, scores: [score], reasonings: ['r'], spread: score === 3.5 ? 1 : 0 };
    return { sample, score: { value: score, answer: grade } };
  };

  it('by hand: defect rate below the threshold with a Wilson interval, mean, distribution, counts', () => {
    const m = groundednessMetrics([row(1), row(2), row(3), row(3.5), row(5), row(5), row(null), row(undefined)], 3);
    // 6 graded; below 3: the 1 and the 2 → 2/6; mean (1+2+3+3.5+5+5)/6 = 19.5/6.
    assert.equal(m['defect_rate'], 2 / 6);
    assert.deepEqual(m['defect_rate_ci95'], wilsonInterval(2, 6));
    assert.equal(m['mean_score'], 19.5 / 6);
    assert.deepEqual(m['distribution'], { '1': 1, '2': 1, '3': 1, '3.5': 1, '5': 2 });
    assert.equal(m['mean_spread'], 1 / 6);
    assert.deepEqual([m['graded'], m['no_verdict'], m['n'], m['errors']], [6, 1, 7, 1]);
    const ci = m['mean_score_ci95'] as { low: number; high: number };
    assert.ok(ci.low < 19.5 / 6 && 19.5 / 6 < ci.high);
    assert.equal(groundednessMetrics([row(3)], 4)['defect_rate'], 1, 'the threshold is strict: 3 < 4');
    // A stored run's half level (made before scores became levels) still reads as recorded.
    assert.equal(m['no_majority_share'], 0);
  });

  it('no_majority_share by hand: repeats [5, 5, 4], [2, 3, 3, 2], [1, 3, 5] and [4] → 2 of 4', () => {
    const graded = (id: string, scores: number[], score: number) => ({
      sample: { id, input: [], target: null, metadata: {} } as Sample,
      score: { value: score, answer: { score, scores, reasonings: scores.map(() => 'r'), spread: Math.max(...scores) - Math.min(...scores) } satisfies GroundednessGrade } as Score,
    });
    const m = groundednessMetrics([graded('a', [5, 5, 4], 5), graded('b', [2, 3, 3, 2], 3), graded('c', [1, 3, 5], 3), graded('d', [4], 4)], 3);
    assert.equal(m['no_majority_share'], 2 / 4);
    assert.equal(m['defect_rate'], 0);
  });
});
