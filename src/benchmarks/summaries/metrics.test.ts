import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sample, Score } from '../../core/index.js';
import { wilsonInterval } from '../../metrics/intervals.js';
import type { ScoredSample } from '../task.js';
import type { ClaimLabel, SummaryJudgment } from './judgment.js';
import { summaryCoverage } from './judgment.js';
import { summariesMetrics } from './metrics.js';

let counter = 0;
const sample = (category?: string): Sample => ({ id: `s${counter++}`, input: [], target: null, metadata: category ? { category } : {} });
const judged = (labels: readonly ClaimLabel[], coverage?: SummaryJudgment['coverage']): Score => {
  const answer: SummaryJudgment = { claims: labels.map((verdict, i) => ({ claim: `claim ${i}`, verdict, reason: 'r' })), ...(coverage ? { coverage } : {}) };
  return { value: labels.every((l) => l !== 'no'), answer };
};
const noVerdict: Score = { value: null, answer: null, explanation: 'the judge gave no usable claims after 3 tries' };

describe('summaryCoverage', () => {
  it('is the share of article-yes questions the summary also answers yes; null when the article answers none yes', () => {
    assert.equal(summaryCoverage({ questions: ['a', 'b', 'c', 'd'], fromArticle: ['yes', 'yes', 'no', 'yes'], fromSummary: ['yes', 'idk', 'yes', 'no'] }), 1 / 3);
    assert.equal(summaryCoverage({ questions: ['a'], fromArticle: ['idk'], fromSummary: ['yes'] }), null);
  });
});

describe('summariesMetrics', () => {
  it('hand-built set: alignment, claim shares, richness, coverage, counts; no verdicts and errors outside every denominator', () => {
    const rows: ScoredSample[] = [
      { sample: sample('tech'), score: judged(['yes', 'yes', 'idk'], { questions: ['q1', 'q2'], fromArticle: ['yes', 'yes'], fromSummary: ['yes', 'no'] }) }, // aligned; coverage ½
      { sample: sample('tech'), score: judged(['yes', 'no'], { questions: ['q1', 'q2'], fromArticle: ['yes', 'no'], fromSummary: ['yes', 'yes'] }) }, // not aligned; coverage 1
      { sample: sample('sport'), score: judged([]) }, // zero claims: an empty answer, not aligned; no coverage check
      { sample: sample('sport'), score: judged(['idk', 'idk']) }, // all idk: aligned
      { sample: sample('sport'), score: noVerdict },
      { sample: sample('sport'), score: undefined }, // error
    ];
    const m = summariesMetrics(rows);
    // 4 judged, 2 aligned (the one with no claim fails) → 0.5; verdicts 3 + 2 + 0 + 2 = 7, yes 3, idk 3; richness 7/4; coverage (½ + 1)/2.
    assert.equal(m['alignment'], 0.5);
    assert.deepEqual(m['alignment_ci95'], wilsonInterval(2, 4));
    assert.equal(m['claim_support'], 3 / 7);
    assert.equal(m['idk_rate'], 3 / 7);
    assert.equal(m['richness'], 7 / 4);
    assert.equal(m['coverage'], 0.75);
    assert.equal(m['empty_summaries'], 1);
    assert.equal(m['judged'], 4);
    assert.equal(m['no_verdict'], 1);
    assert.equal(m['errors'], 1);
    assert.equal(m['n'], 5);
    // Coverage is asked (the default 5 questions): the three summaries without a usable check are its no verdicts; the error is not.
    assert.equal(m['coverage_no_verdict'], 3);
    for (const key of ['claim_support_ci95', 'idk_rate_ci95', 'richness_ci95', 'coverage_ci95']) {
      const ci = m[key] as { low: number; high: number };
      const point = m[key.replace('_ci95', '')] as number;
      assert.ok(ci.low <= point && point <= ci.high && ci.low < ci.high, `${key}: ${JSON.stringify(ci)} around ${point}`);
    }
    // The same scores give the same intervals (seeded bootstrap).
    assert.deepEqual(summariesMetrics(rows), m);
    // Per category, the same definitions: tech 2 judged, 1 aligned, 5 verdicts, 3 yes, 1 idk;
    // sport 2 judged (the empty one not aligned), 1 no verdict, 1 error, 2 verdicts, both idk.
    const byCategory = m['by_category'] as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(byCategory), ['sport', 'tech']);
    assert.equal(byCategory['tech']?.['alignment'], 0.5);
    assert.equal(byCategory['tech']?.['claim_support'], 3 / 5);
    assert.equal(byCategory['tech']?.['richness'], 2.5);
    assert.equal(byCategory['sport']?.['alignment'], 0.5);
    assert.equal(byCategory['sport']?.['idk_rate'], 1);
    assert.equal(byCategory['sport']?.['coverage'], null);
    assert.equal(byCategory['sport']?.['coverage_ci95'], null);
    assert.equal(byCategory['sport']?.['no_verdict'], 1);
    assert.equal(byCategory['sport']?.['errors'], 1);
  });

  it('nothing judged: every rate and interval is null, the counts still count', () => {
    const m = summariesMetrics([{ sample: sample(), score: noVerdict }, { sample: sample(), score: undefined }]);
    for (const key of ['alignment', 'alignment_ci95', 'claim_support', 'claim_support_ci95', 'idk_rate', 'richness', 'richness_ci95', 'coverage']) assert.equal(m[key], null, key);
    assert.deepEqual([m['judged'], m['no_verdict'], m['errors'], m['by_category']], [0, 1, 1, undefined]);
  });

  it('only empty summaries: none aligned (an empty answer is not a perfect one), richness 0, claim shares undefined (no verdict to share)', () => {
    const m = summariesMetrics([{ sample: sample(), score: judged([]) }, { sample: sample(), score: judged([]) }]);
    assert.deepEqual([m['alignment'], m['richness'], m['claim_support'], m['claim_support_ci95'], m['empty_summaries']], [0, 0, null, null, 2]);
    assert.deepEqual(m['richness_ci95'], { low: 0, high: 0 });
  });
});
