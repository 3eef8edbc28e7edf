import type { Task } from '../task.js';
import { callDecisionTask, dialogTask, singlecallTask } from './tasks.js';

/** The three FunctionChat-Bench tasks. */
export const functionchatTasks: readonly Task[] = [singlecallTask, dialogTask, callDecisionTask];

export { callDecisionTask, dialogTask, singlecallTask };
export { FUNCTIONCHAT_SETTINGS, FUNCTIONCHAT_TASK_VERSION, promptVersionFor } from './tasks.js';
export { EXACT_MATCH, NEEDS_A_JUDGE, functionchatJudgeRequest, gradeFunctionChat, judgeValues, scoreFunctionChat } from './scoring.js';
export { exactMatch, normalizeString, valuesEqual, type ExactMatch } from './exact-match.js';
export { ERROR_CATEGORIES, diagnoseCall, type CallDiagnosis, type ErrorCategory } from './taxonomy.js';
export { callDecisionMetrics, dialogMetrics, singlecallMetrics } from './metrics.js';
export type { FunctionChatMeta, FunctionChatTarget, FunctionChatTaskName } from './metadata.js';
export { upstreamAcceptableArguments, upstreamGroundTruth, upstreamMessages, upstreamResponse, upstreamTools } from './upstream-format.js';
