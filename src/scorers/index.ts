export * from './yes-no.js';
export * from './tool-selection.js';
export * from './name-matcher.js';
export * from './tool-selection-paper.js';
export { isOrdinaryWord } from './ordinary-words.js';
export * from './leak-match.js';
export * from './scorer.js';
