import { parseModelId, type JudgeSettings } from '../core/index.js';
import type { ModelDeclaration } from '../config/model-declaration.js';
import { findTask } from '../benchmarks/registry.js';
import { createEmbedder } from '../models/embedders.js';
import { prepareTask } from '../benchmarks/prepare-task.js';
import { approxInputTokens } from '../models/middleware/token-estimate.js';
import { KNOWN_PRICES, type Price } from '../models/pricing.js';
import { UNBILLED_PROVIDERS } from '../models/registry.js';
import { requestFor } from './sample-work.js';
import type { RunSpec } from './run-spec.js';
import type { PreparedTask } from '../benchmarks/task.js';

export interface ModelEstimate {
  readonly model: string;
  /**
   * One per sample, or a solver's most per sample (every turn of a conversation): an upper bound
   * (calls answered from the call cache cost nothing; failed attempts are not billed).
   */
  readonly calls: number;
  /** Replay, baselines and local models cost nothing (a declared name: by its declaration's provider). */
  readonly free: boolean;
  /** ≈ characters / 4 of every prompt (messages and tool definitions); null for a solver's calls, whose prompts hold the answers before them. */
  readonly input_tokens: number | null;
  /** Samples × the max tokens of an answer; null when no max is set (answers are not bounded). */
  readonly output_tokens_max: number | null;
  /** USD of the input tokens; null when the model's price is unknown. */
  readonly input_cost_usd: number | null;
  /** USD of the input plus the output bound; null when either is unknown. */
  readonly cost_usd_max: number | null;
}

export interface RunEstimate {
  readonly task: string;
  readonly samples: number;
  /** `--repeats` when > 1: every figure below counts each sample's K answers (and their judgments). */
  readonly repeats?: number;
  readonly models: readonly ModelEstimate[];
  /**
   * The judge's repeats per item (`--judge-repeats`, or the task's default: harm 5) and its calls
   * at most (every item graded, every repeat, every re-ask, every step of a
   * multi-step judgment); null when the task cannot bound them ahead. Their prompts hold the
   * outputs, so they are not priced.
   */
  readonly judge?: { readonly model: string; readonly repeats: number; readonly calls_max: number | null };
  /** The simulated user's calls at most (every turn of every conversation), not priced either. */
  readonly user?: { readonly model: string; readonly calls_max: number };
}

/**
 * Whether calls to `model` cost nothing: a `provider:model` id of an unbilled provider (replay,
 * baselines, local…), or a declared name whose declaration is a `provider` entry of one (a
 * `local` model in the config file; free even with a `price`, as the run itself counts it: its
 * provider is not billed). An application target (`http`, `module`, `exec`) is counted
 * as billed: assay cannot know what it costs, so it is priced only by a declared `price`, else
 * its cost is unknown (null), never 0.
 */
function isUnbilled(model: string, declaration: ModelDeclaration | undefined): boolean {
  if (declaration !== undefined) return declaration.kind === 'provider' && UNBILLED_PROVIDERS.has(declaration.provider);
  return model.includes(':') && UNBILLED_PROVIDERS.has(parseModelId(model).provider);
}

/**
 * What a run would cost before it is made: the task's samples are built (as the run would build
 * them) and each model's prompts measured. Nothing is called and nothing stored. Tokens are
 * approximate (four characters a token), answers are bounded only by a max-tokens setting, and
 * the judge is counted, not priced.
 */
export async function estimateRun(spec: RunSpec, declarations: ReadonlyMap<string, ModelDeclaration> = new Map()): Promise<RunEstimate> {
  const task = findTask(spec.task);
  const prepared = await prepareTask(task, { dataDir: spec.dataDir, seed: spec.seed, options: spec.options, createEmbedder });
  const settings = { ...task.defaultSettings, ...spec.settings };
  const solver = prepared.solver;
  // A solver's prompts (a conversation so far) hold the answers before them: not measurable ahead.
  let inputTokens: number | null = solver ? null : 0;
  if (inputTokens !== null) for (const sample of prepared.samples) inputTokens += approxInputTokens(requestFor(sample, settings));
  // Each repeat sends the sample's prompt again (a seed apart) and is judged on its own.
  const k = spec.repeats ?? 1;
  if (inputTokens !== null) inputTokens *= k;
  const samples = prepared.samples.length;
  const callsPerModel = samples * k * (solver?.maxCalls.test ?? 1);
  const outputMax = settings.maxTokens !== undefined ? callsPerModel * settings.maxTokens : null;
  const models = spec.models.map((model): ModelEstimate => {
    const free = isUnbilled(model, declarations.get(model));
    const price: Price | undefined = free ? { inputPerMillion: 0, outputPerMillion: 0 } : (spec.engine.prices?.[model] ?? KNOWN_PRICES[model]);
    const inputCost = price && inputTokens !== null ? (inputTokens * price.inputPerMillion) / 1e6 : null;
    const outputCost = price && outputMax !== null ? (outputMax * price.outputPerMillion) / 1e6 : free ? 0 : null;
    return {
      model,
      calls: callsPerModel,
      free,
      input_tokens: inputTokens,
      output_tokens_max: outputMax,
      input_cost_usd: inputCost,
      cost_usd_max: inputCost !== null && outputCost !== null ? inputCost + outputCost : null,
    };
  });
  const judged = prepared.gradeWithJudge !== undefined;
  const judgeCalls = spec.judge && judged ? judgeCallsOf(prepared, spec.judge) : null;
  const judge = spec.judge && judged ? { model: spec.judge.model, repeats: spec.judge.repeats, calls_max: judgeCalls === null ? null : judgeCalls * k * spec.models.length } : undefined;
  const user = solver?.simulatedUser && spec.userModel !== undefined ? { model: spec.userModel, calls_max: samples * k * spec.models.length * solver.maxCalls.user } : undefined;
  return { task: task.name, samples, ...(k > 1 ? { repeats: k } : {}), models, ...(judge ? { judge } : {}), ...(user ? { user } : {}) };
}

/**
 * The judge calls grading one output of every sample make at most: each sample's as the task
 * counts it (null when one cannot be bounded ahead), else one rubric judgment each.
 */
function judgeCallsOf(prepared: PreparedTask, judge: Pick<JudgeSettings, 'repeats' | 'maxParseRetries'>): number | null {
  const own = prepared.judgeCallsPerSample;
  if (!own) return prepared.samples.length * judge.repeats * (1 + judge.maxParseRetries);
  let total = 0;
  for (const sample of prepared.samples) {
    const calls = own(judge, sample);
    if (calls === null) return null;
    total += calls;
  }
  return total;
}
