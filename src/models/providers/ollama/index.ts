export { createOllamaProvider, resolveOllamaBaseURL, DEFAULT_OLLAMA_BASE_URL, type OllamaProviderOptions } from './ollama-provider.js';
