import type { EngineSettings, FilePrice, Price, SamplingParams } from './engine-settings.js';
import type { GenerateSettings } from './generate.js';

// What one model may set for itself (a config file's model entry: `models.NAME.rpm`,
// docs/targets.md), without zod: a run with declared models reads their settings through this,
// and must not load the config file's schemas to do so. The schemas of these settings, and their
// descriptions, are engine-settings.ts's `MODEL_OWN_SETTINGS`, built on this table (same keys,
// same order).

/** The `GenerateSettings` field each sampling parameter of a file's `params` becomes (the file writes the wire formats' snake_case). */
export const SAMPLING_PARAM_SETTINGS = {
  temperature: 'temperature',
  top_p: 'topP',
  max_tokens: 'maxTokens',
  seed: 'seed',
  stop: 'stop',
} as const satisfies Record<string, keyof GenerateSettings>;

/** One setting a model may set for itself, as a config file's model entry writes it. */
export interface OwnSettingRow<Value, Into extends object> {
  /**
   * Says how hard the model may be called, not what it answers: a resume or a fleet worker may
   * set it its own way, so it stays out of the declaration's identity (its hash).
   */
  readonly operational: boolean;
  /** Whether only a `provider` entry takes it (a model behind a wire format, not an application). */
  readonly providerOnly?: boolean;
  /** The model's own setting it becomes (`ModelOwnSettings`). */
  into(value: Value): Into;
}

type ReplaceableEngineKey = 'concurrency' | 'timeoutMs' | 'requestsPerMinute' | 'tokensPerMinute';

/** An engine setting a model may replace for its own calls (its schema is the engine's). */
function engineSetting<K extends ReplaceableEngineKey>(key: K, operational: boolean): OwnSettingRow<EngineSettings[K], { readonly [P in K]?: EngineSettings[K] }> & { readonly engineKey: K } {
  return { engineKey: key, operational, into: (value) => ({ [key]: value }) as unknown as { readonly [P in K]?: EngineSettings[K] } };
}

/**
 * The settings one model may set for itself, replacing the run's for its calls alone, each
 * declared once, here, in the order a run records them: the key the file writes, whether it is
 * part of the model's identity, and the model setting it becomes. Adding one: a row here, its
 * schema in engine-settings.ts (`MODEL_OWN_SETTINGS`) and its line in docs/targets.md.
 */
export const MODEL_OWN_SETTING_ROWS = {
  params: {
    operational: false,
    providerOnly: true,
    into: (params: SamplingParams): { readonly params?: GenerateSettings } => ({ params: generateSettingsOf(params) }),
  },
  price: {
    operational: false,
    into: (price: FilePrice): { readonly price?: Price } => ({ price: { inputPerMillion: price.input, outputPerMillion: price.output } }),
  },
  rpm: engineSetting('requestsPerMinute', true),
  tpm: engineSetting('tokensPerMinute', true),
  concurrency: engineSetting('concurrency', true),
  timeoutMs: engineSetting('timeoutMs', true),
} as const satisfies Record<string, OwnSettingRow<never, object>>;

type Rows = typeof MODEL_OWN_SETTING_ROWS;
/** The keys a model entry writes its own settings under (`params`, `price`, `rpm`, …). */
export type ModelOwnSettingKey = keyof Rows;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
/** What a model's own settings become: the fields of the engine settings it replaces, its price and its sampling settings. */
export type ModelOwnSettings = UnionToIntersection<{ [K in ModelOwnSettingKey]: ReturnType<Rows[K]['into']> }[ModelOwnSettingKey]>;

/** The keys of `MODEL_OWN_SETTING_ROWS` that are `operational` (rate limits, concurrency, timeout). */
export const OPERATIONAL_SETTING_KEYS = (Object.keys(MODEL_OWN_SETTING_ROWS) as ModelOwnSettingKey[]).filter((key) => MODEL_OWN_SETTING_ROWS[key].operational);

/** A validated model entry's own settings (the keys of `MODEL_OWN_SETTING_ROWS` it writes) as the model's settings. */
export function modelOwnSettings(entry: Readonly<Partial<Record<ModelOwnSettingKey, unknown>>>): ModelOwnSettings {
  const settings: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(MODEL_OWN_SETTING_ROWS) as [ModelOwnSettingKey, OwnSettingRow<unknown, object>][]) {
    const value = entry[key];
    if (value !== undefined) Object.assign(settings, row.into(value));
  }
  return settings as ModelOwnSettings;
}

/** A file's `params` as core's `GenerateSettings` (the file writes the wire formats' snake_case). */
export function generateSettingsOf(params: Readonly<Partial<Record<keyof typeof SAMPLING_PARAM_SETTINGS, unknown>>> | undefined): GenerateSettings {
  const settings: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SAMPLING_PARAM_SETTINGS)) {
    const value = params?.[key as keyof typeof SAMPLING_PARAM_SETTINGS];
    if (value !== undefined) settings[setting] = value;
  }
  return settings as GenerateSettings;
}
