export { buildTargetRequest, type TargetRequest, type OpenAIShapedTool } from './target-request.js';
export { createSessionIds } from './session-ids.js';
export { readTargetAnswer, readToolCalls, readUsage, readText, targetResult, type Read } from './target-answer.js';
export { targetError, MAX_TARGET_REASON } from './target-error.js';
