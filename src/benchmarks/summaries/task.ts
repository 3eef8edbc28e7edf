import path from 'node:path';
import { user, type Sample, type Score } from '../../core/index.js';
import { latin1Warning, loadArticles } from '../../datasets/articles/index.js';
import type { Rubric } from '../../judges/judge-request.js';
import { loadTaskRubrics, type TaskRubricSpec } from '../../judges/task-rubrics.js';
import { DEFAULT_COMPARISON } from '../comparison.js';
import type { Task, TaskContext } from '../task.js';
import { judgeSummary, type SummaryRubrics } from './judge-summary.js';
import { coverageValueOf, isAligned, judgmentOf, type CoverageOnly } from './judgment.js';
import { SUMMARIES_CHARTS } from './charts.js';
import { summariesMetrics } from './metrics.js';
import { SUMMARIES_READINGS } from './readings.js';
import { SUMMARIES_OPTIONS, summariesOptions } from './options.js';
import { SUMMARIES_METRICS } from './metric-declarations.js';

const NAME = 'summaries/alignment';

/** The rubrics of the summaries judge: their `--rubric` keys, shipped files and placeholders. */
const RUBRICS: readonly TaskRubricSpec[] = [
  { key: 'claims', shipped: 'summaries/claims', placeholders: ['summary'] },
  { key: 'verdicts', shipped: 'summaries/verdicts', placeholders: ['article', 'claims'] },
  { key: 'verdict-per-claim', shipped: 'summaries/verdict-per-claim', placeholders: ['article', 'claim'] },
  { key: 'coverage-questions', shipped: 'summaries/coverage-questions', placeholders: ['article'] },
  { key: 'coverage-answers', shipped: 'summaries/coverage-answers', placeholders: ['text', 'questions'] },
];

/** One export row per summary: its claims with their verdicts and reasons, in order, and its coverage. */
function summaryExportColumns(sample: Sample, score: Score | null): Record<string, unknown> {
  const judgment = judgmentOf(score ?? undefined);
  return {
    category: sample.metadata['category'] ?? null,
    claims: judgment ? judgment.claims.map((c) => c.claim) : null,
    verdicts: judgment ? judgment.claims.map((c) => c.verdict) : null,
    reasons: judgment ? judgment.claims.map((c) => c.reason) : null,
    coverage: coverageValueOf(score ?? undefined),
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
  // `--sample` keeps each category's share of the articles (a folder's subfolders, a category column).
  categoryKey: 'category',
  exportColumns: summaryExportColumns,
  // A judged summary's value is already whether it is aligned (no claim contradicted): the
  // default reading, named.
  comparison: { ...DEFAULT_COMPARISON, passMeans: 'aligned (no claim contradicted)' },
  async prepare(ctx: TaskContext) {
    const options = summariesOptions(NAME, ctx.options.task);
    const set = await loadArticles(options.articles, {
      ...(options.textColumn ? { text: options.textColumn } : {}),
      ...(options.idColumn ? { id: options.idColumn } : {}),
      ...(options.categoryColumn ? { category: options.categoryColumn } : {}),
    });
    const loaded = await loadTaskRubrics(NAME, RUBRICS, ctx.options.rubrics);
    const byKey = (key: string): Rubric => loaded.rubrics[key] as Rubric;
    const rubrics: SummaryRubrics = {
      claims: byKey('claims'),
      verdicts: byKey('verdicts'),
      verdictPerClaim: byKey('verdict-per-claim'),
      coverageQuestions: byKey('coverage-questions'),
      coverageAnswers: byKey('coverage-answers'),
    };
    // The prompt is the instruction, a blank line, then the article: the judge reads the article
    // back from the sample rather than from a second copy of every text kept for the whole run.
    const lead = `${options.prompt}\n\n`;
    const articleOf = (sample: Sample): string | undefined => {
      const content = sample.input[0]?.content;
      return typeof content === 'string' && content.startsWith(lead) ? content.slice(lead.length) : undefined;
    };
    const samples: Sample[] = set.articles.map((article) => ({
      id: article.id,
      input: [user(`${lead}${article.text}`)],
      target: null,
      metadata: { task: 'summaries', ...(article.category !== undefined ? { category: article.category } : {}), ...(article.encoding === 'latin1' ? { encoding: 'latin1' } : {}) },
    }));
    const checksums: Record<string, string> = { [`articles:${path.basename(options.articles)}`]: set.sha256, ...loaded.checksums };
    const latin1 = latin1Warning(set, options.articles);
    return {
      samples: ctx.options.limit ? samples.slice(0, ctx.options.limit) : samples,
      ...(latin1 ? { warnings: [latin1] } : {}),
      datasetChecksums: checksums,
      promptVersion: 'summaries/1',
      score: () => ({ value: null, explanation: 'a summary is graded by the judge: run with --judge <model id>' }),
      async gradeWithJudge(sample, output, judge, settings) {
        const article = articleOf(sample);
        if (article === undefined) return { score: { value: null, explanation: `sample ${sample.id} does not hold an article after the prompt` } };
        const judged = await judgeSummary(judge, article, output.text, rubrics, { ...settings, verdicts: options.verdicts, coverageQuestions: options.coverageQuestions });
        if (judged.kind === 'error') return { error: { kind: `judge-${judged.error.kind}`, message: `the judge failed: ${judged.error.message}` } };
        if (judged.kind === 'no-verdict') {
          // Alignment has no verdict; a usable coverage check still counts for coverage.
          const answer: CoverageOnly | null = judged.coverage ? { claims: null, coverage: judged.coverage } : null;
          return { score: { value: null, answer, explanation: `judge: no verdict — ${judged.reason}` } };
        }
        const { judgment } = judged;
        const contradicted = judgment.claims.filter((c) => c.verdict === 'no').length;
        const coverageNote = judgment.coverageNoVerdict !== undefined ? `; coverage: no verdict — ${judgment.coverageNoVerdict}` : '';
        const said =
          judgment.empty === true
            ? 'an empty summary (no text): no claim, not aligned'
            : judgment.claims.length === 0
              ? 'no claim in the summary: not aligned'
              : `${judgment.claims.length} claim(s), ${contradicted} contradicted by the article`;
        return {
          score: {
            value: isAligned(judgment),
            answer: judgment,
            explanation: `${said}${coverageNote}`,
          },
        };
      },
      // Claims once, verdicts R times (one call per summary, or one per claim: unknown ahead),
      // coverage three calls; each may be re-asked.
      judgeCallsPerSample: ({ repeats, maxParseRetries }) =>
        options.verdicts === 'per-claim' ? null : (1 + repeats + (options.coverageQuestions > 0 ? 3 : 0)) * (1 + maxParseRetries),
    };
  },
  charts: SUMMARIES_CHARTS,
  metrics: summariesMetrics,
  judgedReadings: SUMMARIES_READINGS,
  metricDeclarations: SUMMARIES_METRICS,
};
