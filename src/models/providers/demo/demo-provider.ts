import type { ModelProvider } from '../../spec.js';
import { createOpenAIProvider } from '../openai/openai-provider.js';

export interface DemoProviderOptions {
  /** The name after `demo:`, sent as `model`: the demo's server plays a role by it. */
  readonly model: string;
  /** The demo's loopback server (`http://127.0.0.1:<port>/v1`). */
  readonly baseURL: string;
  readonly connections?: number;
}

/**
 * `demo:<name>`: the OpenAI-compatible provider pointed at the loopback server `assay demo`
 * starts, under its own id (its calls are cached, priced and labelled apart from any real model),
 * billing nothing and with no key: it never reads `OPENAI_API_KEY` / `OPENAI_BASE_URL`, so a key
 * is never sent to the demo's server.
 */
export function createDemoProvider(options: DemoProviderOptions): ModelProvider {
  const provider = createOpenAIProvider({
    model: options.model,
    baseURL: options.baseURL,
    provider: 'demo',
    env: {},
    ...(options.connections !== undefined ? { connections: options.connections } : {}),
  });
  return { ...provider, billed: false };
}
