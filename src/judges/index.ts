// The judge subsystem: rubrics as data, fenced values, strict verdict parsing, repeats with a
// majority vote, all through the model middleware. See docs/architecture.md, "The judge subsystem".
export type { Rubric, JudgeRequest } from './judge-request.js';
export { loadRubric, rubricPlaceholders } from './rubric.js';
export { fence } from './fence.js';
export { fillRubric } from './fill.js';
export { parsePassFail, PASS_WORDS, FAIL_WORDS, type ParsedVerdict } from './verdict.js';
export { verdictSchema, JSON_VERDICT_INSTRUCTION, withJsonVerdictInstruction } from './json-verdict-request.js';
export { parseJsonVerdict } from './json-verdict.js';
export { majority, type MajorityVote } from './vote.js';
export {
  judgeWithRubric,
  rubricGraded,
  checkJudgeSettings,
  defaultJudgeSettings,
  RUBRIC_STEP,
  type JudgeCall,
  type Judgment,
  type RubricAudit,
  type DeterministicScore,
  type RubricGraded,
} from './judge.js';
export { parseJsonAnswer, type JsonAnswer } from './json-answer.js';
export { askJudgeForJson, type AskJsonOptions, type AskJsonResult } from './ask-json.js';
export { loadShippedRubric, SHIPPED_RUBRICS_DIR } from './shipped-rubrics.js';
export { loadTaskRubrics, type TaskRubricSpec } from './task-rubrics.js';
