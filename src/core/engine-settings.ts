import { z } from 'zod';
import { InputError } from './errors.js';
import type { GenerateSettings } from './generate.js';

// Not in core/index.ts on purpose: the barrel stays free of zod, so a command that only needs the
// vocabulary does not load it. Import this file directly.

/** Retries of a failed call (429, 5xx, timeout, network): exponential backoff with full jitter. */
export const retryPolicySchema = z.object({
  /** Retries after the first attempt (so at most maxRetries + 1 attempts). */
  maxRetries: z.number().int().nonnegative(),
  baseDelayMs: z.number().nonnegative(),
  maxDelayMs: z.number().nonnegative(),
});

/** USD per million tokens. */
export const priceSchema = z.object({
  inputPerMillion: z.number().nonnegative(),
  outputPerMillion: z.number().nonnegative(),
});

/**
 * How the engine calls models: the one declaration of the engine settings. The CLI's engine
 * options are one row per key of it (`cli/engine-options.ts`, in this order, which is the order a
 * run records them in), the run record keeps them (`RecordedEngine`, `store/run-parts.ts`: every key optional, as
 * written), a session and a queue worker read them back (`runner/recorded-engine.ts`), and each
 * model's middleware takes its share (`ModelSettings`). Stored with the run: never a secret.
 * Adding a setting: a key here (with its doc comment), its CLI row, its line in the docs.
 */
export const engineSettingsSchema = z.object({
  /** Model calls in flight at once, per model (`--concurrency`). */
  concurrency: z.int().min(1),
  /** Per-attempt timeout in milliseconds (`--timeout`); a hung connection is abandoned after this and retried. */
  timeoutMs: z.int().min(1),
  /** Retries of a failed call (`--max-retries` sets `maxRetries`). */
  retry: retryPolicySchema,
  /**
   * The longest wait a server may ask for (Retry-After) that a call waits; a longer ask ends the
   * call as its error, saying how long was asked. Absent: `DEFAULT_MAX_RETRY_WAIT_MS` (2 minutes);
   * recorded only when another is given (`--max-retry-wait`), so runs made with the default keep their engine record.
   */
  maxRetryWaitMs: z.number().int().nonnegative().optional(),
  /** Answer identical requests from the call cache (`--no-cache` turns it off). */
  cache: z.boolean(),
  /** Requests-per-minute limit per model (`--rpm`). */
  requestsPerMinute: z.int().min(1).optional(),
  /** Tokens-per-minute limit per model (`--tpm`). */
  tokensPerMinute: z.int().min(1).optional(),
  /** The OpenAI-compatible endpoint (`--base-url`, else `$OPENAI_BASE_URL`); recorded with its credentials hidden. */
  openaiBaseURL: z.string().optional(),
  /** Price overrides by model id (USD per million tokens, `--price`). */
  prices: z.record(z.string(), priceSchema).optional(),
  /** Spending cap of the run in USD, all models and the judge together (`--max-cost`; see `Budget`). */
  maxCostUsd: z.number().optional(),
  /**
   * Stop a model after errors that repeat for every sample (a refused key, a model that does not
   * exist, a refused request shape; see `runner/fail-fast.ts`). Absent: on. `false`
   * (`--no-fail-fast`) calls every sample and stores such errors as results; recorded only then.
   */
  failFast: z.boolean().optional(),
});

/** How the engine calls models (see `engineSettingsSchema`). */
export type EngineSettings = Readonly<z.infer<typeof engineSettingsSchema>>;
export type RetryPolicy = Readonly<z.infer<typeof retryPolicySchema>>;
export type Price = Readonly<z.infer<typeof priceSchema>>;

/** The settings' keys in the schema's order: the order a run records them in. */
export const ENGINE_SETTING_KEYS = Object.keys(engineSettingsSchema.shape) as readonly (keyof EngineSettings)[];

/**
 * Engine settings checked against the schema, returned as given (same object, same key order, so
 * what a run records is what it was given); a wrong one is one `InputError` line naming the
 * setting (`where`: whose settings they are, e.g. "run r1's engine record").
 */
export function checkEngineSettings(engine: EngineSettings, where = 'engine settings'): EngineSettings {
  const checked = engineSettingsSchema.safeParse(engine);
  if (checked.success) return engine;
  const issue = checked.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  throw new InputError(`${where}: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'not valid'}`);
}

// ---------------------------------------------------------------------------------------------
// What one model may set for itself

/** One setting a model may set for itself, as a config file's model entry writes it. */
interface OwnSetting<S extends z.ZodType, Into extends object> {
  /** The value's schema: for an engine setting, that setting's own (`engineSettingsSchema`), so the file refuses what the engine refuses. */
  readonly schema: S;
  /** What it means, for the published JSON Schema. */
  readonly description: string;
  /**
   * Says how hard the model may be called, not what it answers: a resume or a fleet worker may
   * set it its own way, so it stays out of the declaration's identity (its hash).
   */
  readonly operational: boolean;
  /** Whether only a `provider` entry takes it (a model behind a wire format, not an application). */
  readonly providerOnly?: boolean;
  /** The model's own setting it becomes (`ModelOwnSettings`). */
  into(value: z.output<S>): Into;
}

/** An engine setting a model may replace for its own calls: its schema is the engine's. */
function engineSetting<K extends 'concurrency' | 'timeoutMs' | 'requestsPerMinute' | 'tokensPerMinute'>(key: K, description: string, operational: boolean): OwnSetting<(typeof engineSettingsSchema.shape)[K], { readonly [P in K]?: EngineSettings[K] }> & { readonly engineKey: K } {
  return { engineKey: key, schema: engineSettingsSchema.shape[key], description, operational, into: (value) => ({ [key]: value }) as unknown as { readonly [P in K]?: EngineSettings[K] } };
}

/**
 * Sampling parameters a model may fix for every call, by the key a config file writes (the wire
 * formats' own snake_case), each with its schema and the `GenerateSettings` field it becomes.
 */
export const SAMPLING_PARAMS = {
  temperature: { setting: 'temperature', schema: z.number().min(0), description: 'Sampling temperature.' },
  top_p: { setting: 'topP', schema: z.number().gt(0).max(1), description: 'Nucleus sampling: the probability mass sampled from.' },
  max_tokens: { setting: 'maxTokens', schema: z.int().min(1), description: 'At most this many tokens per answer.' },
  seed: { setting: 'seed', schema: z.int(), description: 'Sampling seed, for providers that take one.' },
  stop: { setting: 'stop', schema: z.array(z.string().min(1)).min(1), description: 'Stop sequences.' },
} as const satisfies Record<string, { readonly setting: keyof GenerateSettings; readonly schema: z.ZodType; readonly description: string }>;

/** `params` as a config file writes it: every key of `SAMPLING_PARAMS`, each optional; strict. */
export const samplingParamsSchema = z
  .strictObject(optionalFields(SAMPLING_PARAMS))
  .describe('Sampling parameters for every call to this model; they replace the run\'s own for it.');

/** The file's price, `{input, output}`, on the engine's own price fields. */
export const filePriceSchema = z.strictObject({
  input: priceSchema.shape.inputPerMillion.describe('USD per million input tokens.'),
  output: priceSchema.shape.outputPerMillion.describe('USD per million output tokens.'),
});

/**
 * The settings one model may set for itself, replacing the run's for its calls alone — a config
 * file's model entry (`models.NAME.rpm`, docs/targets.md) — each declared once, here, in the
 * order a run records them: the key the file writes, its schema (an engine setting's is the
 * engine's), what it means, whether it is part of the model's identity, and the model setting it
 * becomes. The config file's schema is built from this table (`config/model-entry-schema.ts`), a
 * declared model's settings are read through it (`modelOwnSettings`) and a run's record of a
 * declaration picks its fields by it. Adding one: a row here and its line in docs/targets.md.
 */
export const MODEL_OWN_SETTINGS = {
  params: {
    schema: samplingParamsSchema,
    description: samplingParamsSchema.description ?? '',
    operational: false,
    providerOnly: true,
    into: (params: z.output<typeof samplingParamsSchema>): { readonly params?: GenerateSettings } => ({ params: generateSettingsOf(params) }),
  },
  price: {
    schema: filePriceSchema,
    description: 'The price the run\'s costs are computed at, USD per million tokens (replaces the built-in list price).',
    operational: false,
    into: (price: z.output<typeof filePriceSchema>): { readonly price?: Price } => ({ price: { inputPerMillion: price.input, outputPerMillion: price.output } }),
  },
  rpm: engineSetting('requestsPerMinute', 'At most this many requests per minute.', true),
  tpm: engineSetting('tokensPerMinute', 'At most this many tokens per minute.', true),
  concurrency: engineSetting('concurrency', 'Calls in flight at once.', true),
  timeoutMs: engineSetting('timeoutMs', 'Per-attempt timeout in milliseconds: a call with no answer by then is abandoned and retried.', true),
} as const satisfies Record<string, OwnSetting<z.ZodType, object>>;

type OwnSettings = typeof MODEL_OWN_SETTINGS;
/** The keys a model entry writes its own settings under (`params`, `price`, `rpm`, …). */
export type ModelOwnSettingKey = keyof OwnSettings;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
/** What a model's own settings become: the fields of the engine settings it replaces, its price and its sampling settings. */
export type ModelOwnSettings = UnionToIntersection<{ [K in ModelOwnSettingKey]: ReturnType<OwnSettings[K]['into']> }[ModelOwnSettingKey]>;

/** A model entry's own settings as zod fields, each optional: every kind's, or (`providerOnly`) those only a provider entry takes too. */
export function modelOwnSettingFields(): { [K in Exclude<ModelOwnSettingKey, 'params'>]: z.ZodOptional<OwnSettings[K]['schema']> };
export function modelOwnSettingFields(options: { readonly providerOnly: true }): { [K in ModelOwnSettingKey]: z.ZodOptional<OwnSettings[K]['schema']> };
export function modelOwnSettingFields(options: { readonly providerOnly?: boolean } = {}): Record<string, z.ZodType> {
  const entries = Object.entries(MODEL_OWN_SETTINGS) as [ModelOwnSettingKey, OwnSetting<z.ZodType, object>][];
  return Object.fromEntries(entries.filter(([, row]) => options.providerOnly === true || row.providerOnly !== true).map(([key, row]) => [key, row.schema.optional().describe(row.description)]));
}

/** The keys of `MODEL_OWN_SETTINGS` that are `operational` (rate limits, concurrency, timeout). */
export const OPERATIONAL_SETTING_KEYS = (Object.keys(MODEL_OWN_SETTINGS) as ModelOwnSettingKey[]).filter((key) => MODEL_OWN_SETTINGS[key].operational);

/** A validated model entry's own settings (the keys of `MODEL_OWN_SETTINGS` it writes) as the model's settings. */
export function modelOwnSettings(entry: Readonly<Partial<Record<ModelOwnSettingKey, unknown>>>): ModelOwnSettings {
  const settings: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(MODEL_OWN_SETTINGS) as [ModelOwnSettingKey, OwnSetting<z.ZodType, object>][]) {
    const value = entry[key];
    if (value !== undefined) Object.assign(settings, row.into(value));
  }
  return settings as ModelOwnSettings;
}

/** A file's `params` as core's `GenerateSettings` (the file writes the wire formats' snake_case). */
export function generateSettingsOf(params: Readonly<Partial<Record<keyof typeof SAMPLING_PARAMS, unknown>>> | undefined): GenerateSettings {
  const settings: Record<string, unknown> = {};
  for (const [key, { setting }] of Object.entries(SAMPLING_PARAMS)) {
    const value = params?.[key as keyof typeof SAMPLING_PARAMS];
    if (value !== undefined) settings[setting] = value;
  }
  return settings as GenerateSettings;
}

function optionalFields<T extends Record<string, { readonly schema: z.ZodType; readonly description: string }>>(rows: T): { [K in keyof T]: z.ZodOptional<T[K]['schema']> } {
  return Object.fromEntries(Object.entries(rows).map(([key, row]) => [key, row.schema.optional().describe(row.description)])) as { [K in keyof T]: z.ZodOptional<T[K]['schema']> };
}
