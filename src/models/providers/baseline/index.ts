export * from './baseline-provider.js';
export { lexicalSelect, lexicalYesNo } from './lexical.js';
export { randomSelect, randomYesNo } from './random.js';
export { EXTERNAL_DATA_CUES } from './cue-words.js';
