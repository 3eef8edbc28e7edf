export * from './bm25.js';
export * from './stem.js';
export * from './stop-words.js';
export * from './tokenize.js';
