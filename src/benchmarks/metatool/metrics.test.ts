import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sample, Score } from '../../core/index.js';
import type { Metrics, ScoredSample } from '../task.js';
import type { AwarenessMeta, SelectionMeta } from './metadata.js';
import { wilsonInterval } from '../../metrics/intervals.js';
import { awarenessMetrics, multiSelectionMetrics, singleSelectionMetrics } from './metrics.js';

// Samples and scores are written out by hand (no parser involved); expected numbers are worked out
// in the comments.

let counter = 0;
function selection(meta: Partial<SelectionMeta> & Pick<SelectionMeta, 'task' | 'gold' | 'candidates'>): Sample {
  const metadata: SelectionMeta = {
    source: 'assay',
    query: 'q',
    goldPositions: meta.gold.map((g) => meta.candidates.indexOf(g) + 1),
    maxSelections: meta.task === 'multi' ? 2 : 1,
    shots: 0,
    ...meta,
  };
  return { id: `s${counter++}`, input: [], target: null, metadata };
}
const picked = (tools: string[], hallucinated: string[] = []): Score => ({
  value: null, // metrics read `answer`; value is set below where it matters
  answer: tools,
  ...(hallucinated.length > 0 ? { metadata: { hallucinated } } : {}),
});
const withValue = (score: Score, value: boolean): Score => ({ ...score, value });
const noVerdict: Score = { value: null, answer: null, explanation: 'two tools named' };

/** An expected share given by its counts: the metric is hits / n (null when n is 0), its `_ci95` Wilson's interval of them. */
class Share {
  constructor(readonly hits: number, readonly n: number) {}
}
const of = (hits: number, n: number): Share => new Share(hits, n);

/** `{csr: of(1, 6)}` as the metrics carry it: `{csr: 1/6, csr_ci95: {low, high}}` (an interval of a share, see intervals.test.ts). */
function expand(expected: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(expected).flatMap(([key, value]) => {
    if (!(value instanceof Share)) return [[key, value]];
    const ci = wilsonInterval(value.hits, value.n);
    return [[key, value.n === 0 ? null : value.hits / value.n], [`${key}_ci95`, ci && { low: ci.low, high: ci.high }]];
  }));
}

function assertMetrics(actual: Metrics, given: Record<string, unknown>): void {
  const expected = expand(given);
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort());
  const close = (a: unknown, e: unknown, key: string): void => {
    if (typeof e === 'number') {
      assert.equal(typeof a, 'number', key);
      assert.ok(Math.abs((a as number) - e) < 1e-12, `${key}: ${String(a)} ≠ ${e}`);
    } else if (e !== null && typeof e === 'object') {
      assert.deepEqual(Object.keys(a as object).sort(), Object.keys(e).sort(), key);
      for (const k of Object.keys(e)) close((a as Record<string, unknown>)[k], (e as Record<string, unknown>)[k], `${key}.${k}`);
    } else assert.equal(a, e, key);
  };
  for (const key of Object.keys(expected)) close(actual[key], expected[key], key);
}

describe('awarenessMetrics', () => {
  it('computes accuracy, precision, recall, F1 and no-verdict share with "needs a tool" positive', () => {
    const item = (needsTool: boolean): Sample => {
      const metadata: AwarenessMeta = { task: 'awareness', source: 'assay', query: 'q', needsTool, shots: 0 };
      return { id: `a${counter++}`, input: [], target: needsTool, metadata };
    };
    const rows: ScoredSample[] = [
      { sample: item(true), score: { value: true, answer: 'yes' } }, // tp
      { sample: item(true), score: { value: false, answer: 'no' } }, // fn
      { sample: item(false), score: { value: false, answer: 'yes' } }, // fp
      { sample: item(false), score: { value: true, answer: 'no' } }, // tn
      { sample: item(false), score: { value: true, answer: 'no' } }, // tn
      { sample: item(true), score: { value: null, answer: null, explanation: 'x' } }, // no verdict, a positive
      { sample: item(true), score: undefined }, // model error: left out
    ];
    // 6 scored: accuracy (1+2)/6; precision 1/(1+1); recall 1/(1 tp + 1 fn + 1 positive without verdict);
    // F1 = 2·(1/2)(1/3)/(1/2+1/3) = 0.4; no verdict 1/6. The matrix, counted by hand from the
    // comments above: tp 1 (row 1), fn 1 (row 2), fp 1 (row 3), tn 2 (rows 4, 5); the no verdict
    // (row 6) in no cell; the error (row 7) nowhere.
    assertMetrics(awarenessMetrics(rows), {
      accuracy: of(3, 6),
      precision: of(1, 2),
      recall: of(1, 3),
      f1: 0.4,
      no_verdict: of(1, 6),
      confusion: { tp: 1, fp: 1, tn: 2, fn: 1, no_verdict: 1 },
    });
  });
});

describe('the paper reading: rates over decided answers, manual analysis counted apart', () => {
  const item = (needsTool: boolean): Sample => {
    const metadata: AwarenessMeta = { task: 'awareness', source: 'assay', query: 'q', needsTool, shots: 0 };
    return { id: `p${counter++}`, input: [], target: needsTool, metadata };
  };
  const paperScore = (value: boolean, answer: 'yes' | 'no'): Score => ({ value, answer, metadata: { parser: 'paper' } });
  const manual: Score = { value: null, answer: null, explanation: 'manual analysis: x', metadata: { parser: 'paper', manual: true } };

  it('awareness: accuracy, precision, recall and F1 over the decided answers, with manual and decided counts', () => {
    const rows: ScoredSample[] = [
      { sample: item(true), score: paperScore(true, 'yes') }, // tp
      { sample: item(true), score: paperScore(true, 'yes') }, // tp
      { sample: item(true), score: manual }, // manual: left out of every rate
      { sample: item(false), score: paperScore(false, 'yes') }, // fp
      { sample: item(false), score: paperScore(true, 'no') }, // tn
      { sample: item(false), score: manual },
      { sample: item(false), score: undefined }, // error: left out
    ];
    // Decided 4: accuracy (2 tp + 1 tn)/4; precision 2/3; recall 2/2; F1 = 2·2/(2·2 + 1 + 0) = 0.8.
    // The matrix over the decided answers: tp 2, fp 1, tn 1, fn 0; the manual ones in no cell.
    assertMetrics(awarenessMetrics(rows), { accuracy: of(3, 4), precision: of(2, 3), recall: of(2, 2), f1: 0.8, manual: 2, decided: 4, confusion: { tp: 2, fp: 1, tn: 1, fn: 0, no_verdict: 0 } });
  });

  it('selection: csr and its breakdowns over the decided answers; no hallucination rate (the paper counts none)', () => {
    const s = (gold: string, position: number): Sample =>
      selection({ task: 'similar', gold: [gold], candidates: ['c1', 'c2', 'c3'].toSpliced(position - 1, 0, gold), nearest: ['n1'] });
    const rows: ScoredSample[] = [
      { sample: s('A', 1), score: { ...paperScore(true, 'yes'), answer: ['A'] } },
      { sample: s('B', 1), score: { ...paperScore(false, 'yes'), answer: ['n1'] } },
      { sample: s('C', 2), score: { ...paperScore(false, 'yes'), answer: [] } },
      { sample: s('D', 2), score: manual },
    ];
    // Decided 3, 1 correct; position 1: 1/2, position 2: 0/1; the one wrong single pick is nearest #1.
    assertMetrics(singleSelectionMetrics(rows, { byPosition: true, byScenario: false, topK: true }), {
      csr: of(1, 3),
      csr_by_position: { '1': 0.5, '2': 0 },
      top1: 1,
      top3: 1,
      top5: 1,
      manual: 1,
      decided: 3,
    });
  });

  it('multi: the partial outcomes over the decided at-most-two answers', () => {
    const s = (condition: 'at-most-two' | 'must-two'): Sample => selection({ task: 'multi', gold: ['A', 'B'], candidates: ['A', 'B', 'C'], condition });
    const rows: ScoredSample[] = [
      { sample: s('at-most-two'), score: { ...paperScore(true, 'yes'), answer: ['B', 'A'] } }, // 2/2
      { sample: s('at-most-two'), score: { ...paperScore(false, 'yes'), answer: ['A'] } }, // 1/1
      { sample: s('at-most-two'), score: manual },
      { sample: s('must-two'), score: { ...paperScore(false, 'yes'), answer: ['A', 'C'] } },
    ];
    assertMetrics(multiSelectionMetrics(rows), { csr_2of2: of(1, 2), csr_1of1: of(1, 2), csr_1of2: of(0, 2), csr_must2: of(0, 1), manual: 1, decided: 3 });
  });
});

describe('singleSelectionMetrics', () => {
  const cands = (gold: string, position: number): string[] => {
    const list = ['c1', 'c2', 'c3', 'c4'];
    list.splice(position - 1, 0, gold);
    return list;
  };
  const nearest = ['n1', 'n2', 'n3', 'n4', 'n5'];

  it('similar: csr, no_verdict, hallucinated, csr_by_position and Top@k', () => {
    const s = (gold: string, position: number): Sample => selection({ task: 'similar', gold: [gold], candidates: cands(gold, position), nearest });
    const rows: ScoredSample[] = [
      { sample: s('G1', 1), score: withValue(picked(['G1']), true) }, // correct
      { sample: s('G2', 3), score: withValue(picked(['n1']), false) }, // wrong, nearest #1
      { sample: s('G3', 3), score: withValue(picked(['n4']), false) }, // wrong, nearest #4
      { sample: s('G4', 1), score: withValue(picked([]), false) }, // None: wrong, not in Top@k
      { sample: s('G5', 2), score: noVerdict }, // no verdict: wrong, not in Top@k
      { sample: s('G6', 2), score: withValue(picked(['Zed'], ['Zed']), false) }, // hallucinated, not near
      { sample: s('G7', 2), score: undefined }, // error: left out
    ];
    // 6 scored; 1 correct. By position: 1 → {G1 ✓, G4 ✗} = 1/2; 2 → {G5, G6} = 0; 3 → {G2, G3} = 0.
    // Top@k over the 3 single wrong picks (n1, n4, Zed): top1 1/3, top3 1/3, top5 2/3.
    assertMetrics(singleSelectionMetrics(rows, { byPosition: true, byScenario: false, topK: true }), {
      csr: of(1, 6),
      no_verdict: of(1, 6),
      hallucinated: of(1, 6),
      csr_by_position: { '1': 0.5, '2': 0, '3': 0 },
      top1: 1 / 3,
      top3: 1 / 3,
      top5: 2 / 3,
    });
  });

  it('similar: Top@k is null when there is no wrong single pick', () => {
    const rows: ScoredSample[] = [{ sample: selection({ task: 'similar', gold: ['G'], candidates: cands('G', 2), nearest }), score: withValue(picked(['G']), true) }];
    assertMetrics(singleSelectionMetrics(rows, { byPosition: true, byScenario: false, topK: true }), {
      csr: of(1, 1),
      no_verdict: of(0, 1),
      hallucinated: of(0, 1),
      csr_by_position: { '2': 1 },
      top1: null,
      top3: null,
      top5: null,
    });
  });

  it('scenario: csr per scenario and per position', () => {
    const s = (scenario: string, gold: string, position: number): Sample => selection({ task: 'scenario', gold: [gold], candidates: cands(gold, position), scenario });
    const rows: ScoredSample[] = [
      { sample: s('elders', 'A', 1), score: withValue(picked(['A']), true) },
      { sample: s('elders', 'B', 2), score: withValue(picked(['B']), true) },
      { sample: s('elders', 'C', 2), score: withValue(picked(['c1']), false) },
      { sample: s('Students', 'D', 5), score: withValue(picked(['D']), true) },
    ];
    // 3 of 4 correct; elders 2/3, Students 1/1; position 1: 1/1, 2: 1/2, 5: 1/1.
    assertMetrics(singleSelectionMetrics(rows, { byPosition: true, byScenario: true, topK: false }), {
      csr: of(3, 4),
      no_verdict: of(0, 4),
      hallucinated: of(0, 4),
      csr_by_position: { '1': 1, '2': 0.5, '5': 1 },
      csr_by_scenario: { Students: 1, elders: 2 / 3 },
    });
  });

  it('reliability: only "None" is correct; no position breakdown', () => {
    const s = (): Sample => selection({ task: 'reliability', gold: [], candidates: ['c1', 'c2', 'c3'] });
    const rows: ScoredSample[] = [
      { sample: s(), score: withValue(picked([]), true) },
      { sample: s(), score: withValue(picked(['c2']), false) },
      { sample: s(), score: noVerdict },
      { sample: s(), score: withValue(picked(['Other'], ['Other']), false) },
      { sample: s(), score: undefined },
    ];
    assertMetrics(singleSelectionMetrics(rows, { byPosition: false, byScenario: false, topK: false }), { csr: of(1, 4), no_verdict: of(1, 4), hallucinated: of(1, 4) });
  });

  it('counts a no-verdict answer that named an off-list tool as hallucinated', () => {
    const s = selection({ task: 'reliability', gold: [], candidates: ['c1'] });
    const rows: ScoredSample[] = [
      { sample: s, score: { value: null, answer: null, explanation: 'x', metadata: { found: ['c1', 'Other'], hallucinated: ['Other'] } } },
      { sample: s, score: withValue(picked([]), true) },
    ];
    assertMetrics(singleSelectionMetrics(rows, { byPosition: false, byScenario: false, topK: false }), { csr: of(1, 2), no_verdict: of(1, 2), hallucinated: of(1, 2) });
  });

  it('all rates are null when nothing was scored', () => {
    assertMetrics(singleSelectionMetrics([], { byPosition: true, byScenario: false, topK: false }), { csr: of(0, 0), no_verdict: of(0, 0), hallucinated: of(0, 0), csr_by_position: {} });
  });
});

describe('multiSelectionMetrics', () => {
  it('2/2, 1/1, 1/2 over "at most two"; must-two over "must choose two"; no verdict and hallucinated over all', () => {
    const gold = ['a', 'b'];
    const candidates = ['x', 'a', 'y', 'b'];
    const atMost = (): Sample => selection({ task: 'multi', gold, candidates, condition: 'at-most-two' });
    const must = (): Sample => selection({ task: 'multi', gold, candidates, condition: 'must-two' });
    const rows: ScoredSample[] = [
      { sample: atMost(), score: withValue(picked(['a', 'b']), true) }, // 2/2
      { sample: atMost(), score: withValue(picked(['b', 'a']), true) }, // 2/2 (order does not matter)
      { sample: atMost(), score: withValue(picked(['a']), false) }, // 1/1
      { sample: atMost(), score: withValue(picked(['a', 'x']), false) }, // 1/2
      { sample: atMost(), score: withValue(picked(['x']), false) }, // one tool, not a gold
      { sample: atMost(), score: withValue(picked([]), false) }, // None
      { sample: atMost(), score: noVerdict },
      { sample: atMost(), score: withValue(picked(['x', 'Other'], ['Other']), false) }, // two wrong, one off-list
      { sample: must(), score: withValue(picked(['b', 'a']), true) },
      { sample: must(), score: withValue(picked(['a', 'y']), false) },
      { sample: must(), score: noVerdict },
      { sample: must(), score: undefined }, // error: left out
    ];
    // at most two: 8 scored → 2/2 = 2/8, 1/1 = 1/8, 1/2 = 1/8; must two: 3 scored → 1/3;
    // all 11 scored: no verdict 2/11, hallucinated 1/11.
    assertMetrics(multiSelectionMetrics(rows), {
      csr_2of2: of(2, 8),
      csr_1of1: of(1, 8),
      csr_1of2: of(1, 8),
      csr_must2: of(1, 3),
      no_verdict: of(2, 11),
      hallucinated: of(1, 11),
    });
  });
});

describe('with human reviews (rows as the reviewed summary builds them: the verdict in the value and in `review`)', () => {
  const reviewed = (row: ScoredSample, verdict: boolean): ScoredSample => ({ sample: row.sample, score: { ...(row.score as Score), value: verdict }, review: verdict });

  it('awareness: a reviewed answer is right or wrong against its label, in every rate and the matrix', () => {
    const item = (needsTool: boolean): Sample => {
      const metadata: AwarenessMeta = { task: 'awareness', source: 'assay', query: 'q', needsTool, shots: 0 };
      return { id: `a${counter++}`, input: [], target: needsTool, metadata };
    };
    const rows: ScoredSample[] = [
      reviewed({ sample: item(true), score: { value: true, answer: 'yes' } }, false), // tp made wrong → fn
      { sample: item(true), score: { value: true, answer: 'yes' } }, // tp
      reviewed({ sample: item(false), score: { value: false, answer: 'yes' } }, true), // fp made right → tn
      reviewed({ sample: item(true), score: { value: null, answer: null, explanation: 'x' } }, true), // no verdict made right → tp
    ];
    // tp 2, fn 1, tn 1, fp 0: accuracy 3/4, precision 1, recall 2/3, F1 2·(2/3)/(5/3) = 0.8.
    assertMetrics(awarenessMetrics(rows), { accuracy: of(3, 4), precision: of(2, 2), recall: of(2, 3), f1: 0.8, no_verdict: of(0, 4), confusion: { tp: 2, fp: 0, tn: 1, fn: 1, no_verdict: 0 } });
  });

  it('similar: csr takes the reviewer\'s verdict; an answer passed by a reviewer is not a wrong pick in Top@k', () => {
    const s = (gold: string): Sample => selection({ task: 'similar', gold: [gold], candidates: ['c1', gold], nearest: ['n1', 'n2'] });
    const rows: ScoredSample[] = [
      reviewed({ sample: s('G1'), score: withValue(picked(['n1']), false) }, true), // wrong pick passed
      { sample: s('G2'), score: withValue(picked(['n2']), false) }, // wrong, nearest #2
      reviewed({ sample: s('G3'), score: withValue(picked(['G3']), true) }, false), // right pick failed
    ];
    // csr 1/3; the wrong single picks: n2 only → top1 0, top3 1.
    assertMetrics(singleSelectionMetrics(rows, { byPosition: false, byScenario: false, topK: true }), { csr: of(1, 3), no_verdict: of(0, 3), hallucinated: of(0, 3), top1: 0, top3: 1, top5: 1 });
  });

  it('multi: the reviewer says whether the selection is both golds; an overruled answer counts in no partial outcome', () => {
    const s = (condition: 'at-most-two' | 'must-two'): Sample => selection({ task: 'multi', gold: ['a', 'b'], candidates: ['a', 'b', 'x'], condition });
    const rows: ScoredSample[] = [
      reviewed({ sample: s('at-most-two'), score: withValue(picked(['a']), false) }, true), // 1/1 passed: 2/2, not 1/1
      reviewed({ sample: s('at-most-two'), score: withValue(picked(['a', 'x']), false) }, false), // 1/2, the reviewer agrees
      { sample: s('at-most-two'), score: withValue(picked(['a', 'b']), true) }, // 2/2
      reviewed({ sample: s('must-two'), score: withValue(picked(['a', 'b']), true) }, false), // both golds failed
    ];
    // at most two (3): 2/2 = 2/3, 1/1 = 0, 1/2 = 1/3; must two: 0 of 1.
    assertMetrics(multiSelectionMetrics(rows), { csr_2of2: of(2, 3), csr_1of1: of(0, 3), csr_1of2: of(1, 3), csr_must2: of(0, 1), no_verdict: of(0, 4), hallucinated: of(0, 4) });
  });
});

describe('the intervals, by hand', () => {
  it('3 of 4 correct: Wilson\'s 95% interval [0.3006, 0.9544], worked out from its formula', () => {
    // z = 1.959964, z² = 3.841459, n = 4, p = 0.75: denominator 1 + z²/n = 1.960365;
    // centre (p + z²/2n) / 1.960365 = 1.230182 / 1.960365 = 0.627527;
    // half-width z·√(p(1−p)/n + z²/4n²) / 1.960365 = 1.959964 · √(0.046875 + 0.060023) / 1.960365 = 0.326886.
    const s = (gold: string): Sample => selection({ task: 'scenario', gold: [gold], candidates: ['c1', gold], scenario: 'x' });
    const rows: ScoredSample[] = ['A', 'B', 'C'].map((g) => ({ sample: s(g), score: withValue(picked([g]), true) }));
    rows.push({ sample: s('D'), score: withValue(picked(['c1']), false) });
    const ci = singleSelectionMetrics(rows, { byPosition: false, byScenario: false, topK: false }).csr_ci95 as { low: number; high: number };
    assert.ok(Math.abs(ci.low - (0.627527 - 0.326886)) < 1e-5, String(ci.low));
    assert.ok(Math.abs(ci.high - (0.627527 + 0.326886)) < 1e-5, String(ci.high));
  });
});
