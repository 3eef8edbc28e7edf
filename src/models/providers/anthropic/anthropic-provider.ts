import type { GenerateRequest, GenerateResult } from '../../../core/index.js';
import { createJsonClient } from '../../http/json-client.js';
import { createRedactor } from '../../http/redact-secrets.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import { anthropicErrorFromStatus } from './anthropic-errors.js';
import { buildAnthropicRequest } from './build-anthropic-request.js';
import { parseAnthropicResponse } from './parse-anthropic-response.js';
import { resolveAnthropicEndpoint } from './resolve-anthropic-endpoint.js';

/** The API version header every request carries (the Messages API's stable version). */
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicProviderOptions {
  /** Model name sent as `model`, e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** Default: env `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  readonly baseURL?: string;
  /** Default: env `ANTHROPIC_API_KEY`. Sent as `x-api-key`; never stored or logged. */
  readonly apiKey?: string;
  /** Keep-alive connections (default 64). */
  readonly connections?: number;
  /** Where `ANTHROPIC_BASE_URL` / `ANTHROPIC_API_KEY` defaults are read (default `process.env`); `{}` reads none (a declared `baseUrl` without `apiKeyEnv` is sent no key). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * A provider for Anthropic's native Messages API (`POST /v1/messages`). It only translates
 * (see `buildAnthropicRequest`, `parseAnthropicResponse`) and classifies errors; retries,
 * timeouts and rate limits are the middleware's.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const { model } = options;
  const id = `anthropic:${model}`;
  const endpoint = resolveAnthropicEndpoint(options, options.env);
  const redact = createRedactor(endpoint.secrets);
  const url = redact(endpoint.url);
  const client = createJsonClient({
    origin: endpoint.origin,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'anthropic-version': ANTHROPIC_VERSION,
      ...(endpoint.apiKey !== undefined ? { 'x-api-key': endpoint.apiKey } : {}),
    },
    redact,
    label: id,
    ...(options.connections !== undefined ? { connections: options.connections } : {}),
  });

  async function generate(request: GenerateRequest, options: GenerateOptions): Promise<GenerateResult> {
    const built = buildAnthropicRequest(model, request);
    const response = await client.post(endpoint.path, JSON.stringify(built.body), options.abort ?? options.signal, url);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return parseAnthropicResponse(response.text, response.statusCode, {
        requestedModel: model,
        requestWarnings: built.warnings,
        ...(built.responseTool !== undefined ? { responseTool: built.responseTool } : {}),
      });
    }
    throw anthropicErrorFromStatus(response.statusCode, response.headers, response.text, url);
  }

  return { specVersion: 'v1', id, cacheable: true, secrets: endpoint.secrets, generate, close: () => client.close() };
}
