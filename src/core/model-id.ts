import { InputError } from './errors.js';

export const PROVIDERS = ['openai', 'anthropic', 'gemini', 'ollama', 'local', 'replay', 'baseline', 'given', 'scripted', 'demo'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface ModelId {
  readonly provider: ProviderName;
  /** Everything after the first colon: a model name, a file path, a baseline name. */
  readonly model: string;
  /** The id as written, `provider:model`. */
  readonly id: string;
}

/** The one place a `provider:model` id is parsed. */
export function parseModelId(id: string): ModelId {
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) {
    throw new InputError(`model id "${id}" is not of the form provider:model (e.g. openai:gpt-4o-mini, local:./model.gguf, replay:outputs.jsonl, baseline:lexical)`);
  }
  const provider = id.slice(0, colon);
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    throw new InputError(`unknown provider "${provider}" in model id "${id}"; known providers: ${PROVIDERS.join(', ')}`);
  }
  return { provider: provider as ProviderName, model: id.slice(colon + 1), id };
}
