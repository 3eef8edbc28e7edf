export * from './replay-provider.js';
export { loadReplayFile } from './load.js';
export { parseReplayLine, type ReplayEntry } from './parse-line.js';
