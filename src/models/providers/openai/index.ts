export { createOpenAIProvider, buildOpenAIRequestBody, DEFAULT_CONNECTIONS, type OpenAIProviderOptions } from './openai-provider.js';
export { resolveOpenAIEndpoint, DEFAULT_OPENAI_BASE_URL, type OpenAIEndpoint } from './resolve-endpoint.js';
export { convertToOpenAIMessages } from './convert-to-openai-messages.js';
export { prepareTools } from './prepare-tools.js';
export { mapOpenAIFinishReason } from './map-finish-reason.js';
export { parseRetryAfterMs } from '../../http/retry-after.js';
