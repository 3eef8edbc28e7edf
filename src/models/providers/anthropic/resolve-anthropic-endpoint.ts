import { InputError } from '../../../core/index.js';
import { nonEmpty, parseBaseURL, pathPrefix, shownUrl, endpointSecrets } from '../../http/base-url.js';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicEndpoint {
  readonly origin: string;
  /** e.g. `/v1/messages` (after any prefix of the base URL). */
  readonly path: string;
  /** The full URL, for messages (credentials in its query hidden). */
  readonly url: string;
  readonly apiKey: string | undefined;
  /** What must never be stored or shown: the key and the base URL's credentials (`endpointSecrets`). */
  readonly secrets: readonly string[];
}

/**
 * Base URL and key like Anthropic's SDKs: explicit options, then `ANTHROPIC_BASE_URL` and
 * `ANTHROPIC_API_KEY`. The base URL is the host *without* `/v1` (the SDKs' convention). A key is
 * required for api.anthropic.com only (proxies and the tests' loopback server may take none).
 */
export function resolveAnthropicEndpoint(
  options: { baseURL?: string; apiKey?: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
): AnthropicEndpoint {
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.ANTHROPIC_BASE_URL) ?? DEFAULT_ANTHROPIC_BASE_URL;
  const parsed = parseBaseURL('Anthropic base URL', baseURL, DEFAULT_ANTHROPIC_BASE_URL);
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.ANTHROPIC_API_KEY);
  if (apiKey === undefined && parsed.hostname === 'api.anthropic.com') {
    throw new InputError(`ANTHROPIC_API_KEY is not set; it is required for ${parsed.origin}`);
  }
  const path = `${pathPrefix(parsed)}/v1/messages${parsed.search}`;
  const secrets = endpointSecrets(parsed, apiKey);
  return { origin: parsed.origin, path, url: shownUrl(parsed.origin, path, secrets), apiKey, secrets };
}
