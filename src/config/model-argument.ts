import { InputError, parseModelId, type ModelId } from '../core/index.js';
import { DEFAULT_CONFIG_FILE, CONFIG_ENV } from './config-location.js';
import type { AssayConfig } from './load-config.js';
import type { ModelDeclaration } from './model-declaration.js';
import { nearestName } from '../core/nearest-name.js';

/** What a model argument (`-m`, `--judge`, `--user-model`) names: a declared model, or a provider's model by id. */
export type ModelArgument = { readonly kind: 'declared'; readonly declaration: ModelDeclaration } | { readonly kind: 'id'; readonly id: ModelId };

/**
 * A model argument resolved: with a `:` it is a `provider:model` id, the same with or without a
 * config file (declared names never have one); without, it must be a name the file declares.
 * @throws InputError for an id of no known provider, or a name not declared — listing the
 * declared names (and the nearest one), or saying how to declare it when there is no file.
 */
export function resolveModelArgument(argument: string, config: AssayConfig | undefined): ModelArgument {
  if (argument.includes(':')) return { kind: 'id', id: parseModelId(argument) };
  const declaration = config?.models.get(argument);
  if (declaration) return { kind: 'declared', declaration };
  const idForm = 'a provider\'s model is written provider:model, e.g. openai:gpt-4o-mini';
  if (!config) {
    throw new InputError(`model "${argument}" is not declared: there is no config file (${DEFAULT_CONFIG_FILE} in the working directory, --config FILE or ${CONFIG_ENV}); ${idForm}`);
  }
  const names = [...config.models.keys()];
  const nearest = nearestName(argument, names);
  const declared = names.length > 0 ? `it declares ${names.join(', ')}` : 'it declares no models';
  throw new InputError(`model "${argument}" is not declared in ${config.file}${nearest !== undefined ? ` (did you mean "${nearest}"?)` : ''}: ${declared}; ${idForm}`);
}
