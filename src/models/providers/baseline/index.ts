export * from './baseline-provider.js';
