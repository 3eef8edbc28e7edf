export { createAnthropicProvider, ANTHROPIC_VERSION, type AnthropicProviderOptions } from './anthropic-provider.js';
export { buildAnthropicRequest, DEFAULT_ANTHROPIC_MAX_TOKENS, type AnthropicRequest } from './build-anthropic-request.js';
export { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
export { parseAnthropicResponse } from './parse-anthropic-response.js';
export { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
export { anthropicErrorFromStatus } from './anthropic-errors.js';
export { resolveAnthropicEndpoint, DEFAULT_ANTHROPIC_BASE_URL } from './resolve-anthropic-endpoint.js';
