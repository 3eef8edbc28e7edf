import { InputError } from '../../../core/index.js';
import { basicCredentials, endpointSecrets, nonEmpty, parseBaseURL, restoreCredentials, shownUrl } from '../../http/base-url.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIEndpoint {
  /** `scheme://host:port`, the key of the connection pool. */
  readonly origin: string;
  /** Request path including any prefix of the base URL and its query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** The full URL, for messages (credentials in its query hidden). */
  readonly url: string;
  readonly apiKey: string | undefined;
  /** HTTP Basic credentials from the base URL's user part (`http://user:pass@host/v1`), sent when there is no key. */
  readonly basicAuth: string | undefined;
  /** What must never be stored or shown: the key and the base URL's credentials (`endpointSecrets`). */
  readonly secrets: readonly string[];
}

/**
 * Resolves base URL and key like the OpenAI SDKs: explicit options first, then `OPENAI_BASE_URL`
 * and `OPENAI_API_KEY`. A key is required only for api.openai.com; local OpenAI-compatible
 * servers usually take none. A base URL with credentials hidden, as a run records it, takes
 * them from `OPENAI_BASE_URL` (`restoreCredentials`).
 */
export function resolveOpenAIEndpoint(
  options: { baseURL?: string; apiKey?: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
): OpenAIEndpoint {
  const fromEnv = nonEmpty(env.OPENAI_BASE_URL);
  const given = nonEmpty(options.baseURL);
  const baseURL = (given !== undefined ? restoreCredentials('OpenAI base URL', given, 'OPENAI_BASE_URL', fromEnv) : fromEnv) ?? DEFAULT_OPENAI_BASE_URL;
  const parsed = parseBaseURL('OpenAI base URL', baseURL, 'http://127.0.0.1:8000/v1');
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
  if (apiKey === undefined && parsed.hostname === 'api.openai.com') {
    throw new InputError(`OPENAI_API_KEY is not set; it is required for ${parsed.origin} (local OpenAI-compatible servers need none: set OPENAI_BASE_URL)`);
  }
  const path = `${parsed.pathname.replace(/\/+$/, '')}/chat/completions${parsed.search}`;
  const secrets = endpointSecrets(parsed, apiKey);
  return { origin: parsed.origin, path, url: shownUrl(parsed.origin, path, secrets), apiKey, basicAuth: basicCredentials(parsed), secrets };
}
