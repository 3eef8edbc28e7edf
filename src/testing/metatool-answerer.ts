// The MetaTool answerer is shipped with the demo; the tests and the benchmark use it from here.
export { answerMetaToolPrompt, shownTools } from '../demo/answers/metatool.js';
