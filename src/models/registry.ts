import { InputError, parseModelId, type ProviderName } from '../core/index.js';
import type { ModelProvider } from './spec.js';

/** What providers may need beyond their id. Pure data: it is stored with the run (minus secrets). */
export interface ProviderConfig {
  /** Seed for providers that make random choices (baselines). */
  readonly seed: number;
  /** OpenAI-compatible endpoint; falls back to OPENAI_BASE_URL, then api.openai.com. */
  readonly openaiBaseURL?: string;
  /** API key for the OpenAI-compatible endpoint; falls back to OPENAI_API_KEY. Never stored. */
  readonly openaiApiKey?: string;
  /** Connections the HTTP pool may open (set to the model's concurrency). */
  readonly connections?: number;
  /** Providers built in code (tests, library users), looked up by full id before anything else. */
  readonly custom?: Readonly<Record<string, ModelProvider>>;
}

type Factory = (model: string, config: ProviderConfig) => Promise<ModelProvider>;

/**
 * One factory per provider, each loading its module on first use so that `assay list` does not
 * pay for HTTP clients it never calls. `satisfies` makes forgetting a provider a compile error.
 */
const factories = {
  openai: async (model, config) => {
    const { createOpenAIProvider } = await import('./providers/openai/openai-provider.js');
    return createOpenAIProvider({
      model,
      ...(config.openaiBaseURL ? { baseURL: config.openaiBaseURL } : {}),
      ...(config.openaiApiKey ? { apiKey: config.openaiApiKey } : {}),
      ...(config.connections ? { connections: config.connections } : {}),
    });
  },
  // node-llama-cpp (a native binding) loads only here, when a `local:` id is used.
  local: async (model) => {
    const { createLocalProvider } = await import('./providers/local/local-provider.js');
    return createLocalProvider({ model });
  },
  replay: async (model) => {
    const { createReplayProvider } = await import('./providers/replay/replay-provider.js');
    return createReplayProvider({ path: model });
  },
  baseline: async (model, config) => {
    if (model !== 'random' && model !== 'lexical') throw new InputError(`unknown baseline "${model}"; use baseline:random or baseline:lexical`);
    const { createBaselineProvider } = await import('./providers/baseline/baseline-provider.js');
    return createBaselineProvider({ name: model, seed: config.seed });
  },
  scripted: async (model) => {
    throw new InputError(`scripted:${model} is only available through the library API (pass the provider in code)`);
  },
} satisfies Record<ProviderName, Factory>;

/** Builds the provider for a `provider:model` id. */
export async function createProvider(id: string, config: ProviderConfig): Promise<ModelProvider> {
  const custom = config.custom?.[id];
  if (custom) return custom;
  const { provider, model } = parseModelId(id);
  return factories[provider](model, config);
}
