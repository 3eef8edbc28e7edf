export { METATOOL_ANSWERERS } from './answerers.js';
export { asSelect, asYesNo, type SelectQuestion, type YesNoQuestion } from './questions.js';
export { lexicalSelect, lexicalYesNo } from './lexical.js';
export { randomSelect, randomYesNo } from './random.js';
export { EXTERNAL_DATA_CUES } from './cue-words.js';
