export * from './classification.js';
export * from './rates.js';
