import path from 'node:path';
import { InputError, user, type Sample, type Score } from '../../core/index.js';
import { loadArticles } from '../../datasets/articles/index.js';
import type { Rubric } from '../../judges/judge-request.js';
import { loadRubric, rubricPlaceholders } from '../../judges/rubric.js';
import { loadShippedRubric } from '../../judges/shipped-rubrics.js';
import type { Task, TaskContext } from '../task.js';
import { judgeSummary, type SummaryRubrics } from './judge-summary.js';
import { isAligned, judgmentOf, summaryCoverage } from './judgment.js';
import { summariesMetrics } from './metrics.js';
import { SUMMARIES_OPTIONS, summariesOptions } from './options.js';

const NAME = 'summaries/alignment';

/** Each rubric of the summaries judge: its `--rubric` key, shipped file and placeholders. */
const RUBRICS: readonly { readonly key: keyof SummaryRubrics; readonly flag: string; readonly shipped: string; readonly placeholders: readonly string[] }[] = [
  { key: 'claims', flag: 'claims', shipped: 'summaries/claims', placeholders: ['summary'] },
  { key: 'verdicts', flag: 'verdicts', shipped: 'summaries/verdicts', placeholders: ['article', 'claims'] },
  { key: 'verdictPerClaim', flag: 'verdict-per-claim', shipped: 'summaries/verdict-per-claim', placeholders: ['article', 'claim'] },
  { key: 'coverageQuestions', flag: 'coverage-questions', shipped: 'summaries/coverage-questions', placeholders: ['article'] },
  { key: 'coverageAnswers', flag: 'coverage-answers', shipped: 'summaries/coverage-answers', placeholders: ['text', 'questions'] },
];

/** The shipped rubrics, each replaced by the user's file where `--rubric <key>=FILE` gives one (placeholders checked before any call). */
async function summaryRubrics(overrides: Readonly<Record<string, string>> = {}): Promise<SummaryRubrics> {
  const unknown = Object.keys(overrides).filter((key) => !RUBRICS.some((r) => r.flag === key));
  if (unknown.length > 0) throw new InputError(`${NAME}: no rubric ${unknown.join(', ')}; the rubrics are ${RUBRICS.map((r) => r.flag).join(', ')}`);
  const loaded: Partial<Record<keyof SummaryRubrics, Rubric>> = {};
  for (const spec of RUBRICS) {
    const file = overrides[spec.flag];
    const rubric = file === undefined ? await loadShippedRubric(spec.shipped) : await loadRubric(`${NAME}/${spec.flag}`, file);
    const found = rubricPlaceholders(rubric.template);
    if (found.slice().sort().join() !== [...spec.placeholders].sort().join()) {
      throw new InputError(`rubric ${spec.flag} (${rubric.source}) must use exactly ${spec.placeholders.map((p) => `{${p}}`).join(', ')}; it has ${found.map((p) => `{${p}}`).join(', ') || 'none'}`, { file: rubric.source });
    }
    loaded[spec.key] = rubric;
  }
  return loaded as SummaryRubrics;
}

/** One export row per summary: its claims with their verdicts and reasons, in order, and its coverage. */
function summaryExportColumns(sample: Sample, score: Score | null): Record<string, unknown> {
  const judgment = judgmentOf(score ?? undefined);
  return {
    category: sample.metadata['category'] ?? null,
    claims: judgment ? judgment.claims.map((c) => c.claim) : null,
    verdicts: judgment ? judgment.claims.map((c) => c.verdict) : null,
    reasons: judgment ? judgment.claims.map((c) => c.reason) : null,
    coverage: judgment?.coverage ? summaryCoverage(judgment.coverage) : null,
  };
}

/**
 * Summaries judged by an LLM (the Chrome for Developers method, SPEC §4): every model under test
 * summarizes each article with the same prompt; the judge splits each summary into atomic claims
 * and labels each claim yes / no / idk against the article, and checks coverage with questions
 * written from the article. Articles come from `--articles` (folder, CSV or JSONL).
 */
export const summariesTask: Task = {
  name: NAME,
  version: '1',
  description: 'Summaries judged by an LLM: claims of each summary checked against the article (alignment, claim support, richness, coverage), per category.',
  defaultSettings: { temperature: 0 },
  ownOptions: SUMMARIES_OPTIONS,
  exportColumns: summaryExportColumns,
  async prepare(ctx: TaskContext) {
    const options = summariesOptions(NAME, ctx.options.task);
    const set = await loadArticles(options.articles, {
      ...(options.textColumn ? { text: options.textColumn } : {}),
      ...(options.idColumn ? { id: options.idColumn } : {}),
      ...(options.categoryColumn ? { category: options.categoryColumn } : {}),
    });
    const rubrics = await summaryRubrics(ctx.options.rubrics);
    const articles = new Map(set.articles.map((a) => [a.id, a.text]));
    const samples: Sample[] = set.articles.map((article) => ({
      id: article.id,
      input: [user(`${options.prompt}\n\n${article.text}`)],
      target: null,
      metadata: { task: 'summaries', ...(article.category !== undefined ? { category: article.category } : {}), ...(article.encoding === 'latin1' ? { encoding: 'latin1' } : {}) },
    }));
    const checksums: Record<string, string> = { [`articles:${path.basename(options.articles)}`]: set.sha256 };
    for (const spec of RUBRICS) checksums[`rubric:${spec.flag}`] = rubrics[spec.key].sha256;
    return {
      samples: ctx.options.limit ? samples.slice(0, ctx.options.limit) : samples,
      datasetChecksums: checksums,
      promptVersion: 'summaries/1',
      score: () => ({ value: null, explanation: 'a summary is graded by the judge: run with --judge <model id>' }),
      async gradeWithJudge(sample, output, judge, settings) {
        const article = articles.get(sample.id);
        if (article === undefined) return { score: { value: null, explanation: `no article ${sample.id} in ${options.articles}` } };
        const judged = await judgeSummary(judge, article, output.text, rubrics, { ...settings, verdicts: options.verdicts, coverageQuestions: options.coverageQuestions });
        if (judged.kind === 'error') return { error: { kind: `judge-${judged.error.kind}`, message: `the judge failed: ${judged.error.message}` } };
        if (judged.kind === 'no-verdict') return { score: { value: null, answer: null, explanation: `judge: no verdict — ${judged.reason}` } };
        const { judgment } = judged;
        const contradicted = judgment.claims.filter((c) => c.verdict === 'no').length;
        return {
          score: {
            value: isAligned(judgment),
            answer: judgment,
            explanation: `${judgment.claims.length} claim(s), ${contradicted} contradicted by the article`,
          },
        };
      },
      // Claims once, verdicts R times (one call per summary, or one per claim: unknown ahead),
      // coverage three calls; each may be re-asked.
      judgeCallsPerSample: ({ repeats, maxParseRetries }) =>
        options.verdicts === 'per-claim' ? null : (1 + repeats + (options.coverageQuestions > 0 ? 3 : 0)) * (1 + maxParseRetries),
      metrics: summariesMetrics,
    };
  },
};
