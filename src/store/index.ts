export type * from './records.js';
export type * from './store.js';
export * from './sqlite/index.js';
export { totalSpend } from './spend.js';
export { newRunId } from './run-id.js';
export { openStore } from './open-store.js';
export { parseStoreUrl, redactStoreUrl, type StoreUrl } from './store-url.js';
