import type { TaskOptions, TaskOptionSpec } from '../task.js';

/**
 * FunctionChat's options: `benchVersion`, recorded at the top level of a run's options and taken
 * by every task's run, as it was before tasks declared their options (see `TaskOptionSpec.topLevel`);
 * only FunctionChat's tasks read it.
 */
export const FUNCTIONCHAT_OPTIONS: readonly TaskOptionSpec[] = [
  {
    key: 'benchVersion',
    value: '<v>',
    description: 'data + rubrics + system prompt version (FunctionChat: v2.0.0 default, paper-2024-09)',
    topLevel: { helpAfter: 'prompts', recordedAfter: 'sample', everyTask: true },
  },
];

/** A FunctionChat run's options as recorded: `benchVersion` at the top level beside the generic ones. */
export interface FunctionChatRunOptions extends TaskOptions {
  /** Data + rubric + system prompt version (`v2.0.0`, `paper-2024-09`). */
  readonly benchVersion?: string;
}
