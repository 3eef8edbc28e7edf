import { describeError, type GenerateResult, type GenerateSettings, type Role, type RoleGenerate, type Sample, type TranscriptStep, type Usage } from '../core/index.js';
import type { Solver } from '../benchmarks/task.js';
import type { CallContext, Model } from '../models/middleware/model.js';
import type { CallRecord } from '../store/records.js';
import type { FailedCall } from './fail-fast.js';
import { roleCallRecords } from './role-calls.js';

/** The models a solver's roles reach for one sample: the model under test, and the run's simulated user. */
export interface SolverCast {
  readonly test: Model;
  readonly user?: Model;
}

/** What solving one sample gave: the output or the error, the transcript, and the totals of every call made. */
export interface Solving {
  readonly output: GenerateResult | null;
  readonly error: { readonly kind: string; readonly message: string } | null;
  readonly transcript: readonly TranscriptStep[];
  /** Every call answered by the call cache (none paid in this session). */
  readonly cached: boolean;
  readonly attempts: number;
  readonly latencyMs: number;
  readonly usage: Usage;
  readonly costUsd: number | null;
  /** Roles with a call answered by the provider itself (it works: breaks a fail-fast streak). */
  readonly answered: ReadonlySet<Role>;
  /** The failed call that ended the sample, for fail-fast; absent when the solver ended it for a reason of its own. */
  readonly failedCall?: FailedCall;
}

/**
 * Runs a task's solver on one sample: each call it makes goes through its role's model (and so
 * its middleware) and is stored the moment it is made by `persist` (which charges the budget), so
 * a kill -9 mid-conversation loses no paid call. A solver that throws ends the sample in error
 * with the reason (never a crash, never a silent pass).
 */
export async function solveSample(
  solver: Solver,
  sample: Sample,
  cast: SolverCast,
  settings: GenerateSettings,
  context: CallContext,
  ids: { readonly runId: string; readonly repeat?: number },
  persist: (records: readonly CallRecord[]) => Promise<void>,
): Promise<Solving> {
  const transcript: TranscriptStep[] = [];
  const answered = new Set<Role>();
  let attempts = 0, latencyMs = 0, inputTokens = 0, outputTokens = 0;
  let cost: number | null = 0;
  let cached = true;
  let failedCall: FailedCall | undefined;
  const generate: RoleGenerate = async (role, request, step) => {
    const model = role === 'test' ? cast.test : role === 'user' ? cast.user : undefined;
    if (!model) throw new Error(role === 'user' ? 'the solver calls a simulated user, and the run has none' : `a solver may call the test and user roles only, not ${role}`);
    const outcome = await model.generate(request, context);
    const { hints: _hints, ...sent } = request;
    const owner = { runId: ids.runId, modelId: cast.test.id, sampleId: sample.id, role, ...(role === 'test' ? {} : { actor: model.id }), ...(ids.repeat !== undefined ? { repeat: ids.repeat } : {}) };
    const records = roleCallRecords(owner, [{ step, request: sent, outcome }], attempts + 1);
    attempts += records.length;
    latencyMs += outcome.latencyMs;
    inputTokens += outcome.usage.inputTokens ?? 0;
    outputTokens += outcome.usage.outputTokens ?? 0;
    cost = cost === null || outcome.costUsd === null ? null : cost + outcome.costUsd;
    if (!outcome.cached) cached = false;
    if (outcome.output && !outcome.cached) answered.add(role);
    if (outcome.error) failedCall = { actor: model.id, role, kind: outcome.error.kind, message: outcome.error.message };
    transcript.push({
      role,
      step,
      model: model.id,
      text: outcome.output?.text ?? null,
      ...(outcome.output && outcome.output.toolCalls.length > 0 ? { toolCalls: outcome.output.toolCalls } : {}),
      ...(outcome.error ? { error: { kind: outcome.error.kind, message: outcome.error.message } } : {}),
    });
    await persist(records);
    return { output: outcome.output, error: outcome.error };
  };
  let output: GenerateResult | null = null;
  let error: Solving['error'] = null;
  try {
    const solved = await solver.solve(sample, generate, settings);
    if ('output' in solved) output = solved.output;
    else error = solved.error;
  } catch (thrown) {
    error = { kind: 'solver', message: `the task's solver failed: ${describeError(thrown)}` };
  }
  const usage: Usage = { inputTokens, outputTokens };
  const ended = error !== null && failedCall !== undefined && error.kind === failedCall.kind ? { failedCall } : {};
  return { output, error, transcript, cached: cached && transcript.length > 0, attempts, latencyMs, usage, costUsd: cost, answered, ...ended };
}
