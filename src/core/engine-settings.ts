import { z } from 'zod';
import { MODEL_OWN_SETTING_ROWS, SAMPLING_PARAM_SETTINGS, type ModelOwnSettingKey } from './model-own-settings.js';

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
 * Adding a setting: a key here (with its doc comment), its plain check (engine-settings-check.ts:
 * the type asks for it), its CLI row, its line in the docs.
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

// The plain check every run does (`checkEngineSettings`) and the keys in order
// (`ENGINE_SETTING_KEYS`) are engine-settings-check.ts's: a run does not load zod.

// ---------------------------------------------------------------------------------------------
// What one model may set for itself

/** One setting a model may set for itself, as a config file's model entry writes it: its row (model-own-settings.ts) with its schema. */
interface OwnSetting<S extends z.ZodType> {
  /** The value's schema: for an engine setting, that setting's own (`engineSettingsSchema`), so the file refuses what the engine refuses. */
  readonly schema: S;
  /** What it means, for the published JSON Schema. */
  readonly description: string;
  /** Whether only a `provider` entry takes it (a model behind a wire format, not an application). */
  readonly providerOnly?: boolean;
}

type Rows = typeof MODEL_OWN_SETTING_ROWS;
type EngineSettingKeyOf<K extends 'rpm' | 'tpm' | 'concurrency' | 'timeoutMs'> = Rows[K]['engineKey'];

/** An engine setting a model may replace for its own calls: its row, with the engine's own schema. */
function engineSetting<K extends 'rpm' | 'tpm' | 'concurrency' | 'timeoutMs'>(key: K, description: string): Rows[K] & { readonly schema: (typeof engineSettingsSchema.shape)[EngineSettingKeyOf<K>]; readonly description: string } {
  const row = MODEL_OWN_SETTING_ROWS[key];
  return { ...row, schema: engineSettingsSchema.shape[row.engineKey as EngineSettingKeyOf<K>], description };
}

/**
 * Sampling parameters a model may fix for every call, by the key a config file writes (the wire
 * formats' own snake_case), each with its schema; the `GenerateSettings` field each becomes is
 * `SAMPLING_PARAM_SETTINGS` (model-own-settings.ts: the same keys).
 */
export const SAMPLING_PARAMS = {
  temperature: { schema: z.number().min(0), description: 'Sampling temperature.' },
  top_p: { schema: z.number().gt(0).max(1), description: 'Nucleus sampling: the probability mass sampled from.' },
  max_tokens: { schema: z.int().min(1), description: 'At most this many tokens per answer.' },
  seed: { schema: z.int(), description: 'Sampling seed, for providers that take one.' },
  stop: { schema: z.array(z.string().min(1)).min(1), description: 'Stop sequences.' },
} as const satisfies { readonly [K in keyof typeof SAMPLING_PARAM_SETTINGS]: { readonly schema: z.ZodType; readonly description: string } };

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
 * file's model entry (`models.NAME.rpm`, docs/targets.md) — each with its schema (an engine
 * setting's is the engine's) and what it means, on its row of `MODEL_OWN_SETTING_ROWS`
 * (model-own-settings.ts: the key the file writes, in the order a run records them, whether it is
 * part of the model's identity, and the model setting it becomes). The config file's schema is
 * built from this table (`config/model-entry-schema.ts`). Adding one: a row there, its schema
 * here and its line in docs/targets.md.
 */
export const MODEL_OWN_SETTINGS = {
  params: { ...MODEL_OWN_SETTING_ROWS.params, schema: samplingParamsSchema, description: samplingParamsSchema.description ?? '' },
  price: {
    ...MODEL_OWN_SETTING_ROWS.price,
    schema: filePriceSchema,
    description: 'The price the run\'s costs are computed at, USD per million tokens (replaces the built-in list price).',
  },
  rpm: engineSetting('rpm', 'At most this many requests per minute.'),
  tpm: engineSetting('tpm', 'At most this many tokens per minute.'),
  concurrency: engineSetting('concurrency', 'Calls in flight at once.'),
  timeoutMs: engineSetting('timeoutMs', 'Per-attempt timeout in milliseconds: a call with no answer by then is abandoned and retried.'),
} as const satisfies { readonly [K in ModelOwnSettingKey]: OwnSetting<z.ZodType> };

type OwnSettings = typeof MODEL_OWN_SETTINGS;

/** The value types of a file's `params` and `price`, as its schemas give them. */
export type SamplingParams = z.output<typeof samplingParamsSchema>;
export type FilePrice = z.output<typeof filePriceSchema>;

/** A model entry's own settings as zod fields, each optional: every kind's, or (`providerOnly`) those only a provider entry takes too. */
export function modelOwnSettingFields(): { [K in Exclude<ModelOwnSettingKey, 'params'>]: z.ZodOptional<OwnSettings[K]['schema']> };
export function modelOwnSettingFields(options: { readonly providerOnly: true }): { [K in ModelOwnSettingKey]: z.ZodOptional<OwnSettings[K]['schema']> };
export function modelOwnSettingFields(options: { readonly providerOnly?: boolean } = {}): Record<string, z.ZodType> {
  const entries = Object.entries(MODEL_OWN_SETTINGS) as [ModelOwnSettingKey, OwnSetting<z.ZodType>][];
  return Object.fromEntries(entries.filter(([, row]) => options.providerOnly === true || row.providerOnly !== true).map(([key, row]) => [key, row.schema.optional().describe(row.description)]));
}

function optionalFields<T extends Record<string, { readonly schema: z.ZodType; readonly description: string }>>(rows: T): { [K in keyof T]: z.ZodOptional<T[K]['schema']> } {
  return Object.fromEntries(Object.entries(rows).map(([key, row]) => [key, row.schema.optional().describe(row.description)])) as { [K in keyof T]: z.ZodOptional<T[K]['schema']> };
}
