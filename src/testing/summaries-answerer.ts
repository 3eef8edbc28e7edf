// The summaries answerer is shipped with the demo; the tests and the benchmark use it from here.
export { TRAP_SENTENCE, answerSummariesRequest, fencedValue, firstSentence, judgeStepAnswer, summaryFor } from '../demo/answers/summaries.js';
