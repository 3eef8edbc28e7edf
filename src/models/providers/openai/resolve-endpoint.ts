import { InputError } from '../../../core/index.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIEndpoint {
  /** `scheme://host:port`, the key of the connection pool. */
  readonly origin: string;
  /** Request path including any prefix of the base URL and its query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** The full URL, for messages. */
  readonly url: string;
  readonly apiKey: string | undefined;
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/**
 * Resolves base URL and key like the OpenAI SDKs: explicit options first, then `OPENAI_BASE_URL`
 * and `OPENAI_API_KEY`. A key is required only for api.openai.com; local OpenAI-compatible
 * servers usually take none.
 */
export function resolveOpenAIEndpoint(
  options: { baseURL?: string; apiKey?: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
): OpenAIEndpoint {
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_OPENAI_BASE_URL;
  let parsed: URL;
  try {
    parsed = new URL(baseURL);
  } catch {
    throw new InputError(`OpenAI base URL "${baseURL}" is not a URL; expected e.g. http://127.0.0.1:8000/v1`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InputError(`OpenAI base URL "${baseURL}" must start with http:// or https://`);
  }
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
  if (apiKey === undefined && parsed.hostname === 'api.openai.com') {
    throw new InputError(`OPENAI_API_KEY is not set; it is required for ${parsed.origin} (local OpenAI-compatible servers need none: set OPENAI_BASE_URL)`);
  }
  const path = `${parsed.pathname.replace(/\/+$/, '')}/chat/completions${parsed.search}`;
  return { origin: parsed.origin, path, url: `${parsed.origin}${path}`, apiKey };
}
