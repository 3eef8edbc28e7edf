import { InputError, type GenerateSettings, type JudgeSettings } from '../core/index.js';
import type { TaskOptions } from '../benchmarks/task.js';
import type { EngineSettings } from '../core/engine-settings.js';
import type { SuiteMembership } from '../store/records.js';

/** The judge a run asks for: its model and the judge settings (whether it grades itself is worked out by the run). */
export type JudgeSpec = JudgeSettings & { readonly model: string };

export const defaultJudgeSpec = { repeats: 1, format: 'text', maxParseRetries: 2, temperature: 0.1 } as const satisfies Omit<JudgeSpec, 'model'>;

/** How the engine calls models: declared once, by `engineSettingsSchema` (core/engine-settings.ts). */
export type { EngineSettings } from '../core/engine-settings.js';

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
  /** The suite run the run is a member of (`assay run --suite`), recorded with it. */
  readonly suiteRun?: SuiteMembership;
  /** The judge of a task graded by one (FunctionChat). */
  readonly judge?: JudgeSpec;
  /** The simulated user's model, for a task whose solver talks to the models under test as a user (`--user-model`). */
  readonly userModel?: string;
  /** Run a judged task without a judge: only its deterministic scores (non-matching calls fail, the rest no verdict). */
  readonly exactOnly?: boolean;
  /** Run although a pinned data file differs from its sha256 (recorded with the run); refused otherwise. */
  readonly allowModifiedData?: boolean;
  /**
   * How many times the model under test answers each sample (`--repeats`, default 1), each repeat
   * with its own seed (`repeatSettings`) and its own result; recorded as `RunRecord.repeats` when > 1.
   */
  readonly repeats?: number;
}

/** The largest `--repeats`: a bound on what one flag can multiply a run's calls by. */
export const MAX_REPEATS = 100;

/** Checks a number of repeats (`--repeats`, a suite's `repeats:`): a whole number from 1 to {@link MAX_REPEATS}; returns it. */
export function checkRepeats(value: number, where = '--repeats'): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_REPEATS) throw new InputError(`${where} must be a whole number from 1 to ${MAX_REPEATS}, got ${value}`);
  return value;
}
