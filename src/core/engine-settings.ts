import { z } from 'zod';
import { InputError } from './errors.js';

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
 * run records them in), the run record keeps them (`RunEngineRecord`: every key optional, as
 * written), a session and a queue worker read them back (`runner/recorded-engine.ts`), and each
 * model's middleware takes its share (`ModelSettings`). Stored with the run: never a secret.
 * Adding a setting: a key here (with its doc comment), its CLI row, its line in the docs.
 */
export const engineSettingsSchema = z.object({
  /** Model calls in flight at once, per model (`--concurrency`). */
  concurrency: z.number().int().positive(),
  /** Per-attempt timeout in milliseconds (`--timeout`); a hung connection is abandoned after this and retried. */
  timeoutMs: z.number().int().positive(),
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
  requestsPerMinute: z.number().int().positive().optional(),
  /** Tokens-per-minute limit per model (`--tpm`). */
  tokensPerMinute: z.number().int().positive().optional(),
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
