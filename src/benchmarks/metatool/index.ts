import type { Task } from '../task.js';
import { awarenessTask } from './awareness.js';
import { multiTask } from './multi.js';
import { reliabilityTask } from './reliability.js';
import { scenarioTask } from './scenario.js';
import { similarTask } from './similar.js';

/** The five MetaTool tasks, in the order of the paper. */
export const metatoolTasks: readonly Task[] = [awarenessTask, similarTask, scenarioTask, reliabilityTask, multiTask];

export { awarenessTask, multiTask, reliabilityTask, scenarioTask, similarTask };
export type { AwarenessMeta, MultiCondition, PromptSource, SelectionMeta, SelectionTaskName } from './metadata.js';
export { awarenessMetrics, multiSelectionMetrics, singleSelectionMetrics } from './metrics.js';
export { PROMPT_VERSION, renderActionPrompt, renderAwarenessFewShot, renderSelectionFewShot, renderThoughtPrompt, renderToolList } from './prompts.js';
export { answerText, scoreAwareness, scoreSelection } from './scoring.js';
