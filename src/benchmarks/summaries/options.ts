import { z } from 'zod';
import { parseOwnOptions } from '../own-options.js';
import { DEFAULT_COVERAGE_QUESTIONS, DEFAULT_SUMMARY_PROMPT } from './option-specs.js';

export { DEFAULT_COVERAGE_QUESTIONS, DEFAULT_SUMMARY_PROMPT, SUMMARIES_OPTIONS } from './option-specs.js';

const schema = z.strictObject({
  articles: z.string().min(1),
  textColumn: z.string().min(1).optional(),
  idColumn: z.string().min(1).optional(),
  categoryColumn: z.string().min(1).optional(),
  prompt: z.string().refine((p) => p.trim() !== '', 'must not be empty').default(DEFAULT_SUMMARY_PROMPT),
  verdicts: z.enum(['batch', 'per-claim']).default('batch'),
  coverageQuestions: z.int().min(0).max(50).default(DEFAULT_COVERAGE_QUESTIONS),
});

export type SummariesOptions = z.infer<typeof schema>;

/** The task's own options, checked; `--articles` is required. */
export const summariesOptions = (taskName: string, given: Readonly<Record<string, string | number>> | undefined): SummariesOptions =>
  parseOwnOptions(taskName, schema, given, { key: 'articles', expected: '<path>: a folder of .txt articles (sub-folder = category), a .csv or a .jsonl file' });
