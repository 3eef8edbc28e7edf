import { Command, Option } from 'commander';
import type { EngineSettings } from '../core/engine-settings.js';
import { checkEngineSettings, ENGINE_SETTING_KEYS } from '../core/engine-settings-check.js';
import { DEFAULT_MAX_RETRY_WAIT_MS, defaultRetryPolicy } from '../models/middleware/retry-policy.js';
import { nonNegativeInt, parsePrice, positiveInt, usdAmount } from './options.js';
import { sharedLimitsOptions, type SharedLimitsFlags } from './shared-limits.js';

/** The engine options as commander parses them (attribute names of the options below). */
export interface EngineFlags extends SharedLimitsFlags {
  concurrency: number;
  rpm?: number;
  tpm?: number;
  timeout: number;
  maxRetries: number;
  maxRetryWait: number;
  cache: boolean;
  baseUrl?: string;
  apiKeyEnv?: string;
  price?: EngineSettings['prices'];
  maxCost?: number;
  failFast: boolean;
}

/** How one engine setting is given on a command line. */
interface EngineFlag<K extends keyof EngineSettings> {
  /** The option's attribute name, for whether it was given (`getOptionValueSource`). */
  readonly flag: keyof EngineFlags;
  /** Made anew for each command that takes it. */
  option(): Option;
  /** The setting a run records from the flags; undefined: not recorded (a default kept out of the record, or not given). */
  value(flags: EngineFlags): EngineSettings[K] | undefined;
  /** The setting a resume takes when the option is given on its command line; default `value`. */
  given?(flags: EngineFlags): EngineSettings[K] | undefined;
}

/**
 * Every engine setting's option: one row per key of `engineSettingsSchema` (the type makes a new
 * key a compile error until it has its row). The run's record takes them in the schema's order.
 */
const ENGINE_FLAGS: { readonly [K in keyof EngineSettings]-?: EngineFlag<K> } = {
  concurrency: {
    flag: 'concurrency',
    option: () => new Option('-c, --concurrency <n>', 'model calls in flight at once, per model').default(8).argParser(positiveInt('--concurrency')),
    value: (flags) => flags.concurrency,
  },
  timeoutMs: {
    flag: 'timeout',
    option: () => new Option('--timeout <ms>', 'per-attempt timeout in milliseconds').default(120_000).argParser(positiveInt('--timeout')),
    value: (flags) => flags.timeout,
  },
  retry: {
    flag: 'maxRetries',
    option: () => new Option('--max-retries <n>', 'retries of a failed call (429, 5xx, timeout, network)').default(defaultRetryPolicy.maxRetries).argParser(nonNegativeInt('--max-retries')),
    value: (flags) => ({ ...defaultRetryPolicy, maxRetries: flags.maxRetries }),
  },
  maxRetryWaitMs: {
    flag: 'maxRetryWait',
    option: () =>
      new Option('--max-retry-wait <seconds>', 'the longest wait a server may ask for (Retry-After) that is waited; a call asked to wait longer ends as a rate-limit error saying how long was asked')
        .default(DEFAULT_MAX_RETRY_WAIT_MS / 1000)
        .argParser(nonNegativeInt('--max-retry-wait')),
    // Recorded only when not the default, so runs made with the default keep their engine record.
    value: (flags) => (flags.maxRetryWait * 1000 !== DEFAULT_MAX_RETRY_WAIT_MS ? flags.maxRetryWait * 1000 : undefined),
    given: (flags) => flags.maxRetryWait * 1000,
  },
  cache: {
    flag: 'cache',
    option: () => new Option('--no-cache', 'do not answer identical requests from the call cache'),
    value: (flags) => flags.cache,
  },
  requestsPerMinute: {
    flag: 'rpm',
    option: () => new Option('--rpm <n>', 'requests-per-minute limit per model').argParser(positiveInt('--rpm')),
    value: (flags) => flags.rpm || undefined,
  },
  tokensPerMinute: {
    flag: 'tpm',
    option: () => new Option('--tpm <n>', 'tokens-per-minute limit per model').argParser(positiveInt('--tpm')),
    value: (flags) => flags.tpm || undefined,
  },
  openaiBaseURL: {
    flag: 'baseUrl',
    option: () => new Option('--base-url <url>', 'OpenAI-compatible endpoint (default: $OPENAI_BASE_URL or https://api.openai.com/v1); credentials in it (user:pass@, api_key=…) are used and recorded as ***. Not with --queue: workers call their own (assay worker --base-url)'),
    value: (flags) => (flags.baseUrl ?? process.env['OPENAI_BASE_URL']) || undefined,
  },
  prices: {
    flag: 'price',
    option: () => new Option('--price <model=in/out>', 'USD per million input/output tokens for a model (repeatable)').argParser(parsePrice),
    value: (flags) => flags.price,
  },
  maxCostUsd: {
    flag: 'maxCost',
    option: () =>
      new Option('--max-cost <usd>', 'stop starting samples once the run has spent this much (all models and the judge; samples in flight finish); the run is then interrupted and resumable').argParser(
        usdAmount('--max-cost'),
      ),
    value: (flags) => flags.maxCost,
  },
  failFast: {
    flag: 'failFast',
    option: () =>
      new Option(
        '--no-fail-fast',
        'keep calling a model after errors that repeat for every sample (by default a model stops at its first 401/403 or 404, or at 3 identical 400s in a row) and store each as the sample\'s error',
      ),
    // Recorded only when turned off, so runs made with the default keep their engine record.
    value: (flags) => (flags.failFast === false ? false : undefined),
    given: (flags) => flags.failFast,
  },
};

/** The rows in the schema's order (the order of the command's help and of the run's record). */
const rows = (): [keyof EngineSettings, EngineFlag<keyof EngineSettings>][] => ENGINE_SETTING_KEYS.map((key) => [key, ENGINE_FLAGS[key] as EngineFlag<keyof EngineSettings>]);

/** Adds the engine options (and the shared limits' and the endpoint key's) to a command. */
export function addEngineOptions(command: Command): Command {
  for (const option of sharedLimitsOptions()) command.addOption(option);
  for (const [key, row] of rows()) {
    command.addOption(row.option());
    // The endpoint's key goes with the endpoint: a secret, never a setting.
    if (key === 'openaiBaseURL') {
      command.addOption(
        new Option('--api-key-env <var>', 'read the API key of the OpenAI-compatible endpoint from this environment variable (default OPENAI_API_KEY; anthropic: and gemini: read their own variables)'),
      );
    }
  }
  return command;
}

/** A new run's engine settings, from its command line (the defaults of the options included), but for the `left` ones. */
export function engineFrom(flags: EngineFlags, left: readonly (keyof EngineSettings)[] = []): EngineSettings {
  const engine: Record<string, unknown> = {};
  for (const [key, row] of rows()) {
    if (left.includes(key)) continue;
    const value = row.value(flags);
    if (value !== undefined) engine[key] = value;
  }
  return checkEngineSettings(engine as EngineSettings, 'engine options');
}

/** The engine settings given on a resume's command line, which replace the run's own for that session (the others are the run's). */
export function givenEngine(flags: EngineFlags, given: (flag: string) => boolean): Partial<EngineSettings> {
  const engine: Record<string, unknown> = {};
  for (const [key, row] of rows()) {
    if (given(row.flag)) engine[key] = (row.given ?? row.value)(flags);
  }
  return engine as Partial<EngineSettings>;
}
