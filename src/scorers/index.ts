export * from './yes-no.js';
export * from './tool-selection.js';
export * from './name-matcher.js';
