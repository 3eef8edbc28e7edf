import { z } from 'zod';
import { user, type Sample, type TaskOptions } from '../../core/index.js';
import { loadGroundednessItems } from '../../datasets/table/groundedness-items.js';
import type { Rubric } from '../../judges/judge-request.js';
import { loadTaskRubrics } from '../../judges/task-rubrics.js';
import { parseOwnOptions } from '../own-options.js';
import type { Task, TaskContext } from '../task.js';
import { DEFAULT_THRESHOLD, GROUNDEDNESS_OPTIONS } from './options.js';
import { judgeGroundedness } from './judge-groundedness.js';
import { GROUNDEDNESS_CHARTS } from './charts.js';
import { groundednessReadings } from './readings.js';
import { EMPTY_ANSWER_GRADE, gradeOf, groundednessMetrics, groundedPass } from './metrics.js';
import { GROUNDEDNESS_METRICS } from './metric-declarations.js';

const NAME = 'quality/groundedness';

const schema = z.strictObject({
  items: z.string().min(1),
  questionColumn: z.string().min(1).optional(),
  contextColumn: z.string().min(1).optional(),
  answerColumn: z.string().min(1).optional(),
  idColumn: z.string().min(1).optional(),
  threshold: z.int().min(1).max(5).default(DEFAULT_THRESHOLD),
});

/** What a model under test is asked when it answers the question itself. */
export const answerPrompt = (question: string, context: string): string =>
  `Answer the question using only the context.\n\nContext:\n${context}\n\nQuestion: ${question}`;

/**
 * Groundedness (SPEC §4): is every statement of an answer supported by its context? The judge
 * scores 1 (not grounded) … 5 (fully grounded) with its reasoning; `defect_rate` is the share
 * below `--threshold`. The answers are the file's own (`-m given:answers`) or a model's, asked
 * the question with the context (`-m openai:…`); both can be measured side by side.
 */
export const groundednessTask: Task = {
  name: NAME,
  version: '1',
  description: 'Groundedness: the judge scores 1–5 how well each answer is supported by its context (defect rate below a threshold, mean, distribution).',
  defaultSettings: { temperature: 0 },
  ownOptions: GROUNDEDNESS_OPTIONS,
  async prepare(ctx: TaskContext) {
    const options = ownOptionsOf(ctx.options.task);
    const columns = {
      ...(options.idColumn ? { id: options.idColumn } : {}),
      ...(options.questionColumn ? { question: options.questionColumn } : {}),
      ...(options.contextColumn ? { context: options.contextColumn } : {}),
      ...(options.answerColumn ? { answer: options.answerColumn } : {}),
    };
    // Answers are read when the file has the column (graded with -m given:answers); a model can answer either way.
    const { items, sha256, encoding } = await loadGroundednessItems(options.items, 'if-present', columns);
    const loaded = await loadTaskRubrics(NAME, [{ key: 'groundedness', shipped: 'groundedness/groundedness', placeholders: ['question', 'context', 'answer'] }], ctx.options.rubrics);
    const rubric = loaded.rubrics['groundedness'] as Rubric;
    const byId = new Map(items.map((i) => [i.id, i]));
    const samples: Sample[] = items.map((item) => ({
      id: item.id,
      input: [user(answerPrompt(item.question, item.context))],
      target: null,
      metadata: { task: 'groundedness' },
      ...(item.answer !== undefined ? { hints: { kind: 'given' as const, text: item.answer } } : {}),
    }));
    return {
      samples: ctx.options.limit ? samples.slice(0, ctx.options.limit) : samples,
      // Said, not only decoded: a file in another encoding would have the judge grade garbled text.
      ...(encoding === 'latin1' ? { warnings: [`${options.items} is not valid UTF-8 and was read as Latin-1 (all ${items.length} item(s)); if that is not its encoding, convert it to UTF-8`] } : {}),
      datasetChecksums: { items: sha256, ...loaded.checksums },
      promptVersion: 'groundedness/1',
      score: () => ({ value: null, explanation: 'an answer is graded by the judge: run with --judge <model id>' }),
      async gradeWithJudge(sample, output, judge, settings) {
        const item = byId.get(sample.id);
        if (!item) return { score: { value: null, explanation: `no item ${sample.id} in ${options.items}` } };
        // An empty answer states nothing the context supports: the lowest grade, a defect under any
        // threshold, without asking the judge (who would be grading nothing); counted in `empty_answers`.
        if (output.text.trim() === '') return { score: { value: EMPTY_ANSWER_GRADE.score, answer: EMPTY_ANSWER_GRADE, explanation: 'an empty answer: grounded 1/5 (defect), the judge not asked' } };
        const judged = await judgeGroundedness(judge, { question: item.question, context: item.context, answer: output.text }, rubric, settings);
        if (judged.kind === 'error') return { error: { kind: `judge-${judged.error.kind}`, message: `the judge failed: ${judged.error.message}` } };
        if (judged.kind === 'no-verdict') return { score: { value: null, answer: null, explanation: `judge: no verdict — ${judged.reason}` } };
        const { grade } = judged;
        return { score: { value: grade.score, answer: grade, explanation: `grounded ${grade.score}/5${grade.score < options.threshold ? ' (defect)' : ''}` } };
      },
      judgeCallsPerSample: ({ repeats, maxParseRetries }) => repeats * (1 + maxParseRetries),
      // Scores are levels of a 1–5 scale: `assay agreement` compares them with human labels (the seed's study).
      severityScale: { min: 1, max: 5 },
      isDefectLevel: (level) => level < options.threshold,
    };
  },
  charts: GROUNDEDNESS_CHARTS,
  // A reviewer's pass is "no defect": the grade at least the run's threshold.
  reviewReading(score, { options }) {
    const grade = gradeOf(score);
    return grade ? groundedPass(grade, ownOptionsOf(options.task).threshold) : null;
  },
  metrics: (rows, { options }) => groundednessMetrics(rows, ownOptionsOf(options.task).threshold),
  judgedReadings: groundednessReadings(({ options }) => ownOptionsOf(options.task).threshold),
  metricDeclarations: GROUNDEDNESS_METRICS,
};

/** The task's own options as the run recorded them (checked when the run was made). */
const ownOptionsOf = (given: TaskOptions['task']): z.infer<typeof schema> =>
  parseOwnOptions(NAME, schema, given, { key: 'items', expected: '<path>: a .csv or .jsonl file of question, context and answer' });
