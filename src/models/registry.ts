import { InputError, parseModelId, type ProviderName, type ReferenceAnswerers } from '../core/index.js';
import type { ModelProvider } from './spec.js';
import type { HttpTargetOptions } from './providers/http/http-target.js';
import type { ModuleTargetOptions } from './providers/module/module-target.js';
import type { ExecTargetOptions } from './providers/exec/exec-target.js';

/**
 * What providers may need beyond their id, built for each model from the run's settings and this
 * process's environment when its provider is made. Never stored: it holds keys and providers built
 * in code; a run records its models' declarations instead (config/recorded-declaration.ts).
 */
export interface ProviderConfig {
  /** Seed for providers that make random choices (baselines). */
  readonly seed: number;
  /**
   * How the `baseline:` models answer the run's task (its `Task.baselines`, handed in by the
   * runner: models/ knows no benchmark). Absent: a baseline answers nothing.
   */
  readonly referenceAnswerers?: ReferenceAnswerers;
  /** OpenAI-compatible endpoint; falls back to OPENAI_BASE_URL, then api.openai.com. */
  readonly openaiBaseURL?: string;
  /** API key for the OpenAI-compatible endpoint; falls back to OPENAI_API_KEY. Never stored. */
  readonly openaiApiKey?: string;
  /** Anthropic Messages API host (without `/v1`); falls back to ANTHROPIC_BASE_URL, then api.anthropic.com. */
  readonly anthropicBaseURL?: string;
  /** Anthropic key; falls back to ANTHROPIC_API_KEY. Never stored. */
  readonly anthropicApiKey?: string;
  /** Gemini API base (with the version, e.g. `…/v1beta`); falls back to GEMINI_BASE_URL, then Google's. */
  readonly geminiBaseURL?: string;
  /** Gemini key; falls back to GEMINI_API_KEY, then GOOGLE_API_KEY. Never stored. */
  readonly geminiApiKey?: string;
  /** Ollama's OpenAI-compatible endpoint; falls back to OLLAMA_HOST, then http://127.0.0.1:11434/v1. */
  readonly ollamaBaseURL?: string;
  /** Extra request headers of an OpenAI-compatible endpoint (a config file's `headers`); their values are secrets to redact. */
  readonly openaiHeaders?: Readonly<Record<string, string>>;
  /**
   * Where the providers read their default endpoint and key variables (`OPENAI_BASE_URL`,
   * `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GEMINI_API_KEY`, `OLLAMA_HOST`…); default
   * `process.env`. `{}` reads none: a model declared with its own `baseUrl` and no `apiKeyEnv` is
   * sent no key, never the provider's usual one (which belongs to the provider's own endpoint).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Connections the HTTP pool may open (set to the model's concurrency). */
  readonly connections?: number;
  /** Providers built in code (tests, library users), looked up by full id before anything else. */
  readonly custom?: Readonly<Record<string, ModelProvider>>;
}

/**
 * Providers whose calls cost nothing (`billed: false`): recorded outputs, reference baselines and
 * in-process models. Known from the id alone, so an estimate needs no provider built.
 */
export const UNBILLED_PROVIDERS: ReadonlySet<ProviderName> = new Set<ProviderName>(['replay', 'baseline', 'given', 'local', 'demo']);

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
      ...(config.openaiHeaders ? { headers: config.openaiHeaders } : {}),
      ...(config.connections ? { connections: config.connections } : {}),
      ...(config.env ? { env: config.env } : {}),
    });
  },
  anthropic: async (model, config) => {
    const { createAnthropicProvider } = await import('./providers/anthropic/anthropic-provider.js');
    return createAnthropicProvider({
      model,
      ...(config.anthropicBaseURL ? { baseURL: config.anthropicBaseURL } : {}),
      ...(config.anthropicApiKey ? { apiKey: config.anthropicApiKey } : {}),
      ...(config.connections ? { connections: config.connections } : {}),
      ...(config.env ? { env: config.env } : {}),
    });
  },
  gemini: async (model, config) => {
    const { createGeminiProvider } = await import('./providers/gemini/gemini-provider.js');
    return createGeminiProvider({
      model,
      ...(config.geminiBaseURL ? { baseURL: config.geminiBaseURL } : {}),
      ...(config.geminiApiKey ? { apiKey: config.geminiApiKey } : {}),
      ...(config.connections ? { connections: config.connections } : {}),
      ...(config.env ? { env: config.env } : {}),
    });
  },
  ollama: async (model, config) => {
    const { createOllamaProvider } = await import('./providers/ollama/ollama-provider.js');
    return createOllamaProvider(
      {
        model,
        ...(config.ollamaBaseURL ? { baseURL: config.ollamaBaseURL } : {}),
        ...(config.connections ? { connections: config.connections } : {}),
      },
      config.env,
    );
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
    return createBaselineProvider({ name: model, seed: config.seed, ...(config.referenceAnswerers ? { answerers: config.referenceAnswerers } : {}) });
  },
  given: async (model) => {
    if (model !== 'answers') throw new InputError(`unknown given:${model}; the answers a task's data holds are given:answers`);
    const { createGivenProvider } = await import('./providers/given/given-provider.js');
    return createGivenProvider(model);
  },
  scripted: async (model) => {
    throw new InputError(`scripted:${model} is only available through the library API (pass the provider in code)`);
  },
  // `assay demo` builds its `demo:` providers itself, pointed at the loopback server it starts.
  demo: async (model) => {
    throw new InputError(`demo:${model} is a scripted model that answers only inside "assay demo" (run "assay demo" to list the demo tasks)`);
  },
} satisfies Record<ProviderName, Factory>;

/** Builds the provider for a `provider:model` id. */
export async function createProvider(id: string, config: ProviderConfig): Promise<ModelProvider> {
  const custom = config.custom?.[id];
  if (custom) return custom;
  const { provider, model } = parseModelId(id);
  return factories[provider](model, config);
}

/**
 * An application target as the config file declares it (issue 23): an HTTP API of its own, a
 * function in a JavaScript module, or a command. Its `name` is its model id (no `:`, so it never
 * clashes with a `provider:model` id).
 */
export type TargetDeclaration =
  | ({ readonly kind: 'http' } & HttpTargetOptions)
  | ({ readonly kind: 'module' } & ModuleTargetOptions)
  | ({ readonly kind: 'exec' } & ExecTargetOptions);

export type { HttpTargetOptions, ModuleTargetOptions, ExecTargetOptions };

/**
 * Builds the provider for an application target, loading its module on first use like the
 * `provider:model` factories. The middleware (`Model`) wraps it as any other provider.
 * @throws InputError for a declaration that cannot work (a template that does not render JSON,
 *   a JMESPath syntax error, a missing environment variable, module file or command).
 */
export async function createTargetProvider(target: TargetDeclaration): Promise<ModelProvider> {
  switch (target.kind) {
    case 'http': {
      const { createHttpTarget } = await import('./providers/http/http-target.js');
      return createHttpTarget(target);
    }
    case 'module': {
      const { createModuleTarget } = await import('./providers/module/module-target.js');
      return createModuleTarget(target);
    }
    case 'exec': {
      const { createExecTarget } = await import('./providers/exec/exec-target.js');
      return createExecTarget(target);
    }
  }
}
