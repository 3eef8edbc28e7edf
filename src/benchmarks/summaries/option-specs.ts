import type { TaskOptionSpec } from '../task.js';

export const DEFAULT_SUMMARY_PROMPT = 'Summarize the article in one paragraph.';
export const DEFAULT_COVERAGE_QUESTIONS = 5;

/** The options `summaries/alignment` declares (offered by `assay run` and `assay samples`; the registry knows them without loading the task). */
export const SUMMARIES_OPTIONS: readonly TaskOptionSpec[] = [
  { key: 'articles', value: '<path>', kind: 'path', description: 'summaries: the articles — a folder of .txt files (sub-folder = category), a .csv or a .jsonl file' },
  { key: 'textColumn', value: '<name>', description: 'summaries: CSV/JSONL column holding the article text (default text)' },
  { key: 'idColumn', value: '<name>', description: 'summaries: CSV/JSONL column holding a stable id (default id when present, else the line number)' },
  { key: 'categoryColumn', value: '<name>', description: 'summaries: CSV/JSONL column holding the category (default category when present)' },
  { key: 'prompt', value: '<text>', description: `summaries: what every model is asked before the article (default "${DEFAULT_SUMMARY_PROMPT}")` },
  { key: 'verdicts', value: '<mode>', choices: ['batch', 'per-claim'], description: 'summaries: one verdict call per summary for all its claims (batch, default) or one per claim' },
  { key: 'coverageQuestions', value: '<k>', kind: 'count', description: `summaries: coverage questions written from each article (default ${DEFAULT_COVERAGE_QUESTIONS}; 0 turns coverage off)` },
];
