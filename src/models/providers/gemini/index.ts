export { createGeminiProvider, type GeminiProviderOptions } from './gemini-provider.js';
export { buildGeminiRequest, type GeminiRequest } from './build-gemini-request.js';
export { convertToGeminiContents } from './convert-to-gemini-contents.js';
export { toGeminiSchema } from './gemini-schema.js';
export { parseGeminiResponse } from './parse-gemini-response.js';
export { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
export { geminiErrorFromStatus } from './gemini-errors.js';
export { resolveGeminiEndpoint, DEFAULT_GEMINI_BASE_URL } from './resolve-gemini-endpoint.js';
