export { createLocalProvider, engineSettingsFrom, type LocalProviderOptions, type ToolMode } from './local-provider.js';
export { parseLocalModelRef, hfDownloadUrl, hfCachePath, defaultModelCacheDir, DEFAULT_HF_ENDPOINT, type LocalModelRef } from './model-ref.js';
export { resolveModelFile, type ResolveModelFileOptions, type ResolvedModelFile, type ModelDownloadProgress } from './resolve-model-file.js';
export { createLocalEmbedder, type LocalEmbedder } from './local-embedder.js';
