export * from './classification.js';
export * from './rates.js';
export * from './intervals.js';
