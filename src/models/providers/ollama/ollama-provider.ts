import { InputError } from '../../../core/index.js';
import { nonEmpty } from '../../http/base-url.js';
import type { ModelProvider } from '../../spec.js';
import { createOpenAIProvider } from '../openai/openai-provider.js';

export const DEFAULT_OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';
const OLLAMA_PORT = '11434';

/**
 * The OpenAI-compatible base URL of an Ollama server. `OLLAMA_HOST` is read the way Ollama reads
 * it: `host`, `host:port` or a full URL; a missing scheme is http, a missing port (without a
 * scheme) is 11434, and a URL without a path gets Ollama's OpenAI-compatible prefix `/v1`.
 */
export function resolveOllamaBaseURL(explicit: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const given = nonEmpty(explicit) ?? nonEmpty(env.OLLAMA_HOST);
  if (given === undefined) return DEFAULT_OLLAMA_BASE_URL;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(given);
  let url: URL;
  try {
    url = new URL(hasScheme ? given : `http://${given}`);
  } catch {
    throw new InputError(`OLLAMA_HOST "${given}" is not a host, host:port or URL; expected e.g. 127.0.0.1:11434`);
  }
  if (!hasScheme && url.port === '') url.port = OLLAMA_PORT;
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1';
  return url.toString().replace(/\/+$/, '');
}

export interface OllamaProviderOptions {
  readonly model: string;
  /** Default: `OLLAMA_HOST`, else http://127.0.0.1:11434/v1. */
  readonly baseURL?: string;
  readonly connections?: number;
}

/**
 * `ollama:<model>`: the OpenAI-compatible provider pointed at Ollama, under its own id (so its
 * calls are cached and priced apart from `openai:`), with no key — and it never reads
 * `OPENAI_API_KEY` / `OPENAI_BASE_URL`, so an OpenAI key is never sent to a local server.
 */
export function createOllamaProvider(options: OllamaProviderOptions, env: Readonly<Record<string, string | undefined>> = process.env): ModelProvider {
  return createOpenAIProvider({
    model: options.model,
    baseURL: resolveOllamaBaseURL(options.baseURL, env),
    provider: 'ollama',
    env: {},
    ...(options.connections !== undefined ? { connections: options.connections } : {}),
  });
}
