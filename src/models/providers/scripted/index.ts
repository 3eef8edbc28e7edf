export * from './scripted-provider.js';
