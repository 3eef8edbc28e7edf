export * from './acceptable.js';
export * from './dataset.js';
export { pythonJsonDumps } from './python-json.js';
export { parseJsonl, readFunctionChatFile, type DataFile, type JsonlRow } from './read-files.js';
export * from './versions.js';
