import type { GenerateSettings, JudgeSettings } from '../core/index.js';
import type { TaskOptions } from '../benchmarks/task.js';
import type { RetryPolicy } from '../models/middleware/retry-policy.js';
import type { Price } from '../models/pricing.js';

/** The judge a run asks for: its model and the judge settings (whether it grades itself is worked out by the run). */
export type JudgeSpec = JudgeSettings & { readonly model: string };

export const defaultJudgeSpec = { repeats: 1, format: 'text', maxParseRetries: 2, temperature: 0.1 } as const satisfies Omit<JudgeSpec, 'model'>;

/** How the engine calls models. Stored with the run (it holds no secrets). */
export interface EngineSettings {
  readonly concurrency: number;
  readonly requestsPerMinute?: number;
  readonly tokensPerMinute?: number;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /**
   * The longest wait a server may ask for (Retry-After) that a call waits; a longer ask ends the
   * call as its error, saying how long was asked. Absent: `DEFAULT_MAX_RETRY_WAIT_MS` (2 minutes);
   * recorded only when another is given (`--max-retry-wait`), so runs made with the default keep their engine record.
   */
  readonly maxRetryWaitMs?: number;
  readonly cache: boolean;
  readonly openaiBaseURL?: string;
  /** Price overrides by model id (USD per million tokens). */
  readonly prices?: Readonly<Record<string, Price>>;
  /** Spending cap of the run in USD, all models and the judge together (see `Budget`). */
  readonly maxCostUsd?: number;
  /**
   * Stop a model after errors that repeat for every sample (a refused key, a model that does not
   * exist, a refused request shape; see `runner/fail-fast.ts`). Absent: on. `false`
   * (`--no-fail-fast`) calls every sample and stores such errors as results.
   */
  readonly failFast?: boolean;
}

/** Everything that defines a run: pure data, validated at the edge (CLI or library caller). */
export interface RunSpec {
  readonly task: string;
  readonly models: readonly string[];
  readonly seed: number;
  readonly options: TaskOptions;
  /** Overrides of the task's default sampling settings. */
  readonly settings?: GenerateSettings;
  readonly dataDir: string;
  readonly engine: EngineSettings;
  /** The judge of a task graded by one (FunctionChat). */
  readonly judge?: JudgeSpec;
  /** The simulated user's model, for a task whose solver talks to the models under test as a user (`--user-model`). */
  readonly userModel?: string;
  /** Run a judged task without a judge: only its deterministic scores (non-matching calls fail, the rest no verdict). */
  readonly exactOnly?: boolean;
  /** Run although a pinned data file differs from its sha256 (recorded with the run); refused otherwise. */
  readonly allowModifiedData?: boolean;
}
