import type { TaskOptionSpec } from '../task.js';

/** The options `cases` declares (offered by `assay run` and `assay samples`; the registry knows them without loading the task). */
export const CASES_OPTIONS: readonly TaskOptionSpec[] = [
  { key: 'file', value: '<path>', kind: 'path', description: 'cases: your test cases, a .yaml or .jsonl file (see docs/cases.md)' },
];
