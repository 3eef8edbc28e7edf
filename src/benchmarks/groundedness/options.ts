import type { TaskOptionSpec } from '../task.js';

export const DEFAULT_THRESHOLD = 3;

/** The options `quality/groundedness` declares (offered by `assay run` and `assay samples`; the registry knows them without loading the task). */
export const GROUNDEDNESS_OPTIONS: readonly TaskOptionSpec[] = [
  { key: 'items', value: '<path>', kind: 'path', description: 'groundedness: a .csv or .jsonl file of question, context and (unless a model answers) answer' },
  { key: 'questionColumn', value: '<name>', description: 'groundedness: the question column (default question)' },
  { key: 'contextColumn', value: '<name>', description: 'groundedness: the context column (default context)' },
  { key: 'answerColumn', value: '<name>', description: 'groundedness: the answer column, graded with -m given:answers (default answer)' },
  { key: 'idColumn', value: '<name>', description: 'CSV/JSONL column holding a stable id (default id when present, else the line number)' },
  { key: 'threshold', value: '<score>', kind: 'count', description: `groundedness: an answer scored below this is a defect (1–5, default ${DEFAULT_THRESHOLD})` },
];
