import { z } from 'zod';
import type { Sample, Score, TaskOptions } from '../../core/index.js';
import type { Rubric } from '../../judges/judge-request.js';
import { loadTaskRubrics } from '../../judges/task-rubrics.js';
import { scoreWith } from '../../scorers/scorer.js';
import { parseOwnOptions } from '../own-options.js';
import type { ChartSpec, PreparedTask, Task, TaskContext } from '../task.js';
import { CASES_OPTIONS } from './options.js';
import { loadCaseFile, type TestCase } from './case-file.js';
import { describeExpectation, EXPECTATION_KINDS } from './expectation.js';
import { gradeCase, scoreCase } from './grade-case.js';
import { CASES_METRICS } from './metric-declarations.js';
import { casesMetrics, expectationResultsOf } from './metrics.js';
import { notPassingNotes } from './summary-notes.js';

const NAME = 'cases';

const schema = z.strictObject({ file: z.string().min(1) });

/** The rubric a `rubric:` expectation is graded with (`--rubric rubric=FILE` replaces it). */
const RUBRICS = [{ key: 'rubric', shipped: 'cases/rubric', placeholders: ['conversation', 'criterion', 'response'] }] as const;

const CHARTS: readonly ChartSpec[] = [
  {
    id: 'by-expectation',
    title: 'Pass rate by expectation kind',
    description: 'Over the decided expectations of each kind (a rubric the judge could not decide is left out).',
    metric: 'by_expectation',
    value: 'pass_rate',
    unit: 'share',
    categories: EXPECTATION_KINDS,
  },
];

/**
 * Your own test cases (`--file cases.yaml`): each case is a question (or a conversation, with
 * tools) and a list of expectations its answer must meet — text it contains or not, a regex, a
 * JSON Schema, an exact tool call (FunctionChat's rules), a rubric graded by the judge. A case
 * passes when every expectation passes. A file with a rubric needs `--judge`; one without runs
 * without a judge (and refuses one).
 */
export const casesTask: Task = {
  name: NAME,
  version: '1',
  description: 'Your own test cases (--file, YAML or JSONL): each answer checked against its expectations — contains, not-contains, regex, json-schema, tool-call, rubric (judged); pass rate with its interval.',
  defaultSettings: { temperature: 0 },
  ownOptions: CASES_OPTIONS,
  exportColumns: (_sample: Sample, score: Score | null) => ({ expectations: score ? expectationResultsOf(score).map(({ kind, expected, outcome, reason }) => ({ kind, expected, outcome, reason })) : null }),
  async prepare(ctx: TaskContext): Promise<PreparedTask> {
    const { file } = ownOptionsOf(ctx.options.task);
    const loaded = await loadCaseFile(file);
    const byId = new Map<string, TestCase>(loaded.cases.map((c) => [c.id, c]));
    const samples: Sample[] = loaded.cases.map((c) => ({
      id: c.id,
      input: c.messages,
      ...(c.tools ? { tools: c.tools } : {}),
      // What the answer is held to, as plain data (the export's gold column, a report's sample).
      target: { expect: c.expectations.map((e) => describeExpectation(e.expectation)) },
      metadata: { task: NAME, line: c.line },
    }));
    const caseOf = (sample: Sample): TestCase => {
      const found = byId.get(sample.id);
      if (!found) throw new Error(`no case ${sample.id} in ${file}`);
      return found;
    };
    const base = {
      samples: ctx.options.limit ? samples.slice(0, ctx.options.limit) : samples,
      datasetChecksums: loaded.checksums,
      promptVersion: 'cases/1',
      // Every expectation but the rubrics, without a judge (a rubric is no verdict until one grades it).
      score: scoreWith({ name: 'cases/expectations', score: ({ sample, output }) => scoreCase(caseOf(sample), output) }),
    };
    // Only a file with a rubric needs a judge: without one, the deterministic score is final and --judge is refused.
    if (!loaded.cases.some((c) => rubricCount(c) > 0)) {
      if (ctx.options.rubrics && Object.keys(ctx.options.rubrics).length > 0) await loadTaskRubrics(NAME, RUBRICS, ctx.options.rubrics);
      return base;
    }
    const rubrics = await loadTaskRubrics(NAME, RUBRICS, ctx.options.rubrics);
    const rubric = rubrics.rubrics['rubric'] as Rubric;
    return {
      ...base,
      datasetChecksums: { ...loaded.checksums, ...rubrics.checksums },
      gradeWithJudge: (sample, output, judge, settings) => gradeCase(caseOf(sample), output, rubric, judge, settings),
      // Each case's own rubrics: a case without one is never sent to the judge.
      judgeCallsPerSample: ({ repeats, maxParseRetries }, sample) => rubricCount(caseOf(sample)) * repeats * (1 + maxParseRetries),
    };
  },
  charts: CHARTS,
  metrics: (rows) => casesMetrics(rows),
  // `assay show` lists the cases that did not pass and why, under the metrics.
  summaryNotes: (rows) => notPassingNotes(rows),
  metricDeclarations: CASES_METRICS,
};

/** How many of a case's expectations a judge grades. */
const rubricCount = (testCase: TestCase): number => testCase.expectations.filter((e) => e.expectation.kind === 'rubric').length;

/** The task's own options as the run recorded them (checked when the run was made). */
const ownOptionsOf = (given: TaskOptions['task']): z.infer<typeof schema> => parseOwnOptions(NAME, schema, given, { key: 'file', expected: '<path>: a .yaml or .jsonl file of test cases (see docs/cases.md)' });
