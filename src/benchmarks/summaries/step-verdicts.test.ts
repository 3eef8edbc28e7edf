import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { GenerateResult, JudgeRunSettings, RoleGenerate, Sample, Score } from '../../core/index.js';
import type { MetricsContext, PreparedTask, ScoredSample } from '../task.js';
import { summariesMetrics } from './metrics.js';
import { SUMMARIES_READINGS } from './readings.js';
import { summariesTask } from './task.js';

// Six articles, each with a marker the scripted judge finds in its prompts.
const ARTICLES = Array.from({ length: 6 }, (_, i) => `Article ${i + 1}. The council met on day ${i + 1} and agreed a budget.`);
/** What the judge says of each summary: its claims' verdicts and the summary side of coverage (5 questions, all answerable from the article). */
const SCRIPT: readonly { readonly verdicts: readonly string[]; readonly fromSummary: readonly string[]; readonly questions?: number }[] = [
  { verdicts: ['yes', 'yes'], fromSummary: ['yes', 'yes', 'yes', 'yes', 'yes'] }, // aligned; coverage 1
  { verdicts: ['yes', 'yes'], fromSummary: ['yes', 'yes', 'yes', 'no', 'no'] }, // aligned; 0.6
  { verdicts: ['yes', 'yes'], fromSummary: ['yes', 'no', 'idk', 'no', 'no'] }, // aligned; 0.2
  { verdicts: ['yes', 'no'], fromSummary: ['yes', 'yes', 'no', 'no', 'no'] }, // not aligned; 0.4
  { verdicts: ['no'], fromSummary: ['no', 'no', 'no', 'no', 'no'] }, // not aligned; 0
  { verdicts: ['no', 'no'], fromSummary: [], questions: 4 }, // two contradicted claims; the coverage step writes 4 questions for 5, every try
];

const output = (text: string): GenerateResult => ({ text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] });
const SETTINGS: JudgeRunSettings = { repeats: 1, format: 'json', maxParseRetries: 1, temperature: 0, seed: 3, model: 'scripted:judge' };

/** Which article (1-based) a prompt is about: the marker of its article, or of its summary ("Summary N"). */
const indexIn = (prompt: string): number => {
  const match = /(?:Article|Summary) (\d)\b/.exec(prompt);
  if (!match) throw new Error(`no article in prompt: ${prompt.slice(0, 80)}`);
  return Number(match[1]) - 1;
};

/** A judge that answers every step from {@link SCRIPT}; `claimsFail` makes every claims answer unreadable. */
function scriptedJudge(options: { claimsFail?: boolean } = {}): { generate: RoleGenerate; steps: string[] } {
  const steps: string[] = [];
  const generate: RoleGenerate = async (_role, request, step) => {
    steps.push(step);
    const prompt = String(request.messages[0]?.content);
    const base = step.replace(/#\d+$/, '');
    let text: string;
    if (base === 'claims') {
      const line = SCRIPT[indexIn(prompt)] as (typeof SCRIPT)[number];
      text = options.claimsFail ? 'I cannot do that.' : JSON.stringify({ claims: line.verdicts.map((_, i) => `claim ${i + 1}`) });
    } else if (base === 'verdicts') {
      const line = SCRIPT[indexIn(prompt)] as (typeof SCRIPT)[number];
      text = JSON.stringify({ verdicts: line.verdicts.map((verdict) => ({ verdict, reason: 'r' })) });
    } else if (base === 'coverage/questions') {
      const line = SCRIPT[indexIn(prompt)] as (typeof SCRIPT)[number];
      text = JSON.stringify({ questions: Array.from({ length: line.questions ?? 5 }, (_, i) => `question ${i + 1}?`) });
    } else if (base === 'coverage/answers-from-article') {
      text = JSON.stringify({ answers: ['yes', 'yes', 'yes', 'yes', 'yes'] });
    } else if (base === 'coverage/answers-from-summary') {
      text = JSON.stringify({ answers: (SCRIPT[indexIn(prompt)] as (typeof SCRIPT)[number]).fromSummary });
    } else throw new Error(`no scripted answer for ${step}`);
    return { output: output(text), error: null };
  };
  return { generate, steps };
}

let dir: string;
let prepared: PreparedTask;
let samples: Sample[];
let context: MetricsContext;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-summary-steps-'));
  ARTICLES.forEach((text, i) => writeFileSync(join(dir, `a${i + 1}.txt`), text));
  const options = { task: { articles: dir } };
  prepared = await summariesTask.prepare({ dataDir: dir, seed: 0, options });
  samples = Array.from(prepared.samples);
  context = { options, facts: undefined };
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function grade(generate: RoleGenerate, summaries: readonly string[]): Promise<ScoredSample[]> {
  const rows: ScoredSample[] = [];
  for (const [i, sample] of samples.entries()) {
    const graded = await prepared.gradeWithJudge?.(sample, output(summaries[i] as string), generate, SETTINGS);
    assert.ok(graded && 'score' in graded, `summary ${i + 1} graded`);
    rows.push({ sample, score: graded.score });
  }
  return rows;
}

const SUMMARIES = ARTICLES.map((_, i) => `Summary ${i + 1}: the council agreed a budget.`);

describe('summaries: each metric is decided by the steps it needs (issue 25, item 1)', () => {
  it('six scripted summaries, one with two contradicted claims whose coverage step wrote 4 questions for 5: alignment 3/6, coverage over five', async () => {
    const rows = await grade(scriptedJudge().generate, SUMMARIES);
    const sixth = rows[5]?.score as Score;
    assert.equal(sixth.value, false, 'the sixth summary is judged: two contradicted claims');
    assert.match(String(sixth.explanation), /2 claim\(s\), 2 contradicted.*coverage: no verdict — coverage\/questions#2: 4 questions where 5 were asked for/);
    const m = summariesMetrics(rows, context);
    // By hand: aligned 1, 2, 3 of six → 0.50 (the old reading dropped the sixth: 3/5 = 0.60).
    assert.equal(m['alignment'], 0.5);
    assert.equal(m['judged'], 6);
    assert.equal(m['no_verdict'], 0);
    // Claims 2+2+2+2+1+2 = 11, yes 2+2+2+1+0+0 = 7.
    assert.equal(m['claim_support'], 7 / 11);
    assert.equal(m['richness'], 11 / 6);
    assert.equal(m['idk_rate'], 0);
    // Coverage over the five with a usable check: (1 + 0.6 + 0.2 + 0.4 + 0) / 5 = 0.44; the sixth is coverage no verdict.
    assert.ok(Math.abs((m['coverage'] as number) - 0.44) < 1e-12, String(m['coverage']));
    assert.equal(m['coverage_no_verdict'], 1);
    assert.equal(m['errors'], 0);
  });

  it('claims with no usable answer: alignment no verdict for all six, while their coverage checks still count', async () => {
    const rows = await grade(scriptedJudge({ claimsFail: true }).generate, SUMMARIES);
    assert.ok(rows.every((r) => r.score?.value === null));
    const m = summariesMetrics(rows, context);
    assert.equal(m['alignment'], null);
    assert.equal(m['judged'], 0);
    assert.equal(m['no_verdict'], 6);
    assert.ok(Math.abs((m['coverage'] as number) - 0.44) < 1e-12, String(m['coverage']));
    assert.equal(m['coverage_no_verdict'], 1);
  });

  it('with coverage turned off (--coverage-questions 0) there is no coverage no verdict to count', () => {
    const m = summariesMetrics([{ sample: samples[0] as Sample, score: { value: true, answer: { claims: [{ claim: 'c', verdict: 'yes', reason: 'r' }] } } }], {
      options: { task: { articles: dir, coverageQuestions: 0 } },
      facts: undefined,
    });
    assert.equal(m['coverage'], null);
    assert.equal('coverage_no_verdict' in m, false);
  });
});

describe('summaries: an empty answer is not a perfect answer (issue 25, item 2)', () => {
  it('content null or white space: no claims call, "idk" to every coverage question without a call, not aligned, counted in empty_summaries', async () => {
    const { generate, steps } = scriptedJudge();
    const summaries = ['', '   \n\t', ...SUMMARIES.slice(2)];
    const rows = await grade(generate, summaries);
    for (const row of rows.slice(0, 2)) {
      assert.equal(row.score?.value, false);
      assert.equal(row.score?.explanation, 'an empty summary (no text): no claim, not aligned');
      assert.deepEqual((row.score?.answer as { coverage: { fromSummary: string[] } }).coverage.fromSummary, ['idk', 'idk', 'idk', 'idk', 'idk']);
    }
    // Summaries 1 and 2 made no claims, verdicts or summary-side coverage call: the article side only.
    assert.equal(steps.filter((s) => s === 'claims').length, 4);
    assert.equal(steps.filter((s) => s === 'coverage/answers-from-summary').length, 3, 'summaries 3–5 (the sixth never gets usable questions)');
    const m = summariesMetrics(rows, context);
    // Aligned: only summary 3 of six → 1/6 (read as "no contradicted claim", the two empty ones would have made it 3/6).
    assert.equal(m['alignment'], 1 / 6);
    assert.equal(m['empty_summaries'], 2);
    // Coverage: 0 + 0 + 0.2 + 0.4 + 0 over five.
    assert.ok(Math.abs((m['coverage'] as number) - 0.12) < 1e-12, String(m['coverage']));
  });
});

describe('summaries: readings side by side (issue 25, item 4)', () => {
  it('two empty summaries and four scripted ones: assay, the seed and DeepEval, by hand', async () => {
    const rows = await grade(scriptedJudge().generate, ['', '  ', ...SUMMARIES.slice(2)]);
    const { metrics, differing } = SUMMARIES_READINGS.read(rows, context);
    const close = (actual: unknown, expected: number, what: string): void => assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-12, `${what}: ${String(actual)} for ${expected}`);
    // assay: only summary 3 is aligned (the empty ones fail) → 1/6; the seed counts both empty ones aligned → 3/6.
    close(metrics['assay']?.['alignment'], 1 / 6, 'assay alignment');
    close(metrics['seed']?.['alignment'], 3 / 6, 'seed alignment');
    assert.equal(metrics['seed']?.['empty_summaries'], 2);
    // DeepEval per summary (alignment, faithfulness, coverage): empty (0, 1, 0) twice; 3 (1, 1, 0.2); 4 (0.5, 0.5, 0.4); 5 (0, 0, 0); 6 (0, 0, none).
    close(metrics['deepeval']?.['alignment'], (0 + 0 + 1 + 0.5 + 0 + 0) / 6, 'deepeval alignment');
    close(metrics['deepeval']?.['faithfulness'], (1 + 1 + 1 + 0.5 + 0 + 0) / 6, 'deepeval faithfulness');
    close(metrics['deepeval']?.['coverage'], (0 + 0 + 0.2 + 0.4 + 0) / 5, 'deepeval coverage');
    // min(alignment, coverage) over the five with both: 0, 0, 0.2, 0.4, 0; none reaches 0.5.
    close(metrics['deepeval']?.['score'], 0.6 / 5, 'deepeval score');
    assert.equal(metrics['deepeval']?.['pass_rate'], 0);
    assert.deepEqual([metrics['deepeval']?.['judged'], metrics['deepeval']?.['scored']], [6, 5]);
    // claim_support is the pooled ratio: yes 2 + 1 + 0 + 0 = 3 of 2 + 2 + 1 + 2 = 7 claims.
    close(metrics['assay']?.['claim_support'], 3 / 7, 'pooled claim support');
    // Verdicts (assay, seed, deepeval): empty (fail, pass, fail) ×2, 3 (pass, pass, fail), 6 (fail, fail, none) differ; 4 and 5 fail everywhere.
    assert.equal(differing, 4);
    assert.ok(SUMMARIES_READINGS.notes.some((n) => n.includes('POOLED')));
  });
});
