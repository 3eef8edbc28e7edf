export * from './classification.js';
export * from './rates.js';
export * from './intervals.js';
export * from './severity.js';
export * from './defect-rate.js';
export * from './weighted-kappa.js';
export * from './agreement.js';
export * from './binary-agreement.js';
