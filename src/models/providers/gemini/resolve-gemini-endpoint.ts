import { InputError } from '../../../core/index.js';
import { nonEmpty, parseBaseURL, pathPrefix, shownUrl, endpointSecrets } from '../../http/base-url.js';

export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

export interface GeminiEndpoint {
  readonly origin: string;
  /** e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  readonly path: string;
  /** The full URL, for messages (credentials in its query hidden). */
  readonly url: string;
  readonly apiKey: string | undefined;
  /** What must never be stored or shown: the key and the base URL's credentials (`endpointSecrets`). */
  readonly secrets: readonly string[];
}

/**
 * `gemini-2.5-flash` → `models/gemini-2.5-flash`; a name that already has a collection
 * (`models/…`, `tunedModels/…`) is kept. Each segment is URL-encoded.
 */
function resourceName(model: string): string {
  const name = model.includes('/') ? model : `models/${model}`;
  return name.split('/').map(encodeURIComponent).join('/');
}

/**
 * Base URL and key: explicit options, then `GEMINI_BASE_URL`, and `GEMINI_API_KEY` or
 * `GOOGLE_API_KEY` (the names Google's SDKs read). The base URL includes the API version
 * (default `…/v1beta`). The key goes in the `x-goog-api-key` header, never in the URL, so it
 * cannot leak into messages. Required for googleapis.com hosts only.
 */
export function resolveGeminiEndpoint(
  options: { model: string; baseURL?: string; apiKey?: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
): GeminiEndpoint {
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.GEMINI_BASE_URL) ?? DEFAULT_GEMINI_BASE_URL;
  const parsed = parseBaseURL('Gemini base URL', baseURL, DEFAULT_GEMINI_BASE_URL);
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.GEMINI_API_KEY) ?? nonEmpty(env.GOOGLE_API_KEY);
  if (apiKey === undefined && parsed.hostname.endsWith('googleapis.com')) {
    throw new InputError(`GEMINI_API_KEY (or GOOGLE_API_KEY) is not set; it is required for ${parsed.origin}`);
  }
  if (options.model.trim() === '') throw new InputError('gemini: give a model name, e.g. gemini:gemini-2.5-flash');
  const path = `${pathPrefix(parsed)}/${resourceName(options.model)}:generateContent${parsed.search}`;
  const secrets = endpointSecrets(parsed, apiKey);
  return { origin: parsed.origin, path, url: shownUrl(parsed.origin, path, secrets), apiKey, secrets };
}
