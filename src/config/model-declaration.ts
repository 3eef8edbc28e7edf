import type { GenerateSettings } from '../core/index.js';
import { generateSettingsOf } from '../core/model-own-settings.js';
import type { ExecEntry, HttpEntry, ModelParams, ModuleEntry, ProviderEntry } from './model-entry-schema.js';

/** Where a declaration is written: messages about a declared model point at its name's line. */
export interface DeclarationSource {
  readonly file: string;
  readonly line: number;
}

interface Declared {
  /** The name: the model id everywhere (`-m small`, the store, reports). */
  readonly name: string;
  readonly source: DeclarationSource;
}

/**
 * One entry of `models:`, validated, with the key that marked its kind made explicit. Paths the
 * file writes relative to itself are resolved here, once, so no later reader needs the file's folder.
 */
export type ModelDeclaration =
  | (Declared & { readonly kind: 'provider' } & ProviderEntry)
  | (Declared & { readonly kind: 'http' } & HttpEntry)
  | (Declared & {
      readonly kind: 'module';
      /** `module` resolved against the config file's folder. */
      readonly modulePath: string;
    } & ModuleEntry)
  | (Declared & {
      readonly kind: 'exec';
      /** The config file's folder: the command runs there, so `exec: [python3, bot.py]` finds bot.py beside the file. */
      readonly cwd: string;
    } & ExecEntry);

export type ProviderDeclaration = Extract<ModelDeclaration, { kind: 'provider' }>;
export type HttpDeclaration = Extract<ModelDeclaration, { kind: 'http' }>;
export type ModuleDeclaration = Extract<ModelDeclaration, { kind: 'module' }>;
export type ExecDeclaration = Extract<ModelDeclaration, { kind: 'exec' }>;

/** A declaration's `params` as core's `GenerateSettings` (the file writes the wire formats' snake_case; `SAMPLING_PARAM_SETTINGS` maps them). */
export function declaredGenerateSettings(params: ModelParams | undefined): GenerateSettings {
  return generateSettingsOf(params);
}
