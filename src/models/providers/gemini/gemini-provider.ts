import type { GenerateRequest, GenerateResult } from '../../../core/index.js';
import { createJsonClient } from '../../http/json-client.js';
import { createRedactor } from '../../http/redact-secrets.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import { buildGeminiRequest } from './build-gemini-request.js';
import { geminiErrorFromStatus } from './gemini-errors.js';
import { parseGeminiResponse } from './parse-gemini-response.js';
import { resolveGeminiEndpoint } from './resolve-gemini-endpoint.js';

export interface GeminiProviderOptions {
  /** Model name, e.g. `gemini-2.5-flash` (or a full `models/…` / `tunedModels/…` name). */
  readonly model: string;
  /** Default: env `GEMINI_BASE_URL`, else `https://generativelanguage.googleapis.com/v1beta`. */
  readonly baseURL?: string;
  /** Default: env `GEMINI_API_KEY`, else `GOOGLE_API_KEY`. Sent as `x-goog-api-key`; never stored or logged. */
  readonly apiKey?: string;
  /** Keep-alive connections (default 64). */
  readonly connections?: number;
  /** Where `GEMINI_BASE_URL` / `GEMINI_API_KEY` / `GOOGLE_API_KEY` defaults are read (default `process.env`); `{}` reads none (a declared `baseUrl` without `apiKeyEnv` is sent no key). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * A provider for the Gemini API's native `generateContent`. It only translates (see
 * `buildGeminiRequest`, `parseGeminiResponse`) and classifies errors; retries, timeouts and rate
 * limits are the middleware's.
 */
export function createGeminiProvider(options: GeminiProviderOptions): ModelProvider {
  const { model } = options;
  const id = `gemini:${model}`;
  const endpoint = resolveGeminiEndpoint(options, options.env);
  const redact = createRedactor(endpoint.secrets);
  const url = redact(endpoint.url);
  const client = createJsonClient({
    origin: endpoint.origin,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(endpoint.apiKey !== undefined ? { 'x-goog-api-key': endpoint.apiKey } : {}),
    },
    redact,
    label: id,
    ...(options.connections !== undefined ? { connections: options.connections } : {}),
  });

  async function generate(request: GenerateRequest, options: GenerateOptions): Promise<GenerateResult> {
    const built = buildGeminiRequest(request);
    const response = await client.post(endpoint.path, JSON.stringify(built.body), options.abort ?? options.signal, url);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return parseGeminiResponse(response.text, response.statusCode, { requestedModel: model, requestWarnings: built.warnings });
    }
    throw geminiErrorFromStatus(response.statusCode, response.headers, response.text, url);
  }

  return { specVersion: 'v1', id, cacheable: true, secrets: endpoint.secrets, generate, close: () => client.close() };
}
