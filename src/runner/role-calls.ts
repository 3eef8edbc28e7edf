import { withFields, type Role } from '../core/index.js';
import type { CallOutcome } from '../models/middleware/model.js';
import type { CallRecord } from '../store/records.js';

/** One call a solver or a model-graded scorer made, with its transcript label. */
export interface MadeCall {
  readonly step?: string;
  /** What was sent (stored as is: the reference hints of a sample are never part of it). */
  readonly request: unknown;
  readonly outcome: CallOutcome;
}

/** Whose calls they are: the sample and model under test they belong to, the role, and the model that answered when it is another. */
export interface CallOwner {
  readonly runId: string;
  /** The model under test whose sample this is. */
  readonly modelId: string;
  readonly sampleId: string;
  readonly role: Role;
  /** The model that answered, when it is not `modelId` (the judge, the simulated user). */
  readonly actor?: string;
  /** The repeat of the model under test the calls are for (`CallRecord.repeat`); absent or 0: the first (or only) answer. */
  readonly repeat?: number;
}

/**
 * Calls made in a role as stored call records: one record per attempt, numbered on from
 * `firstAttempt` (a sample's calls count up across its steps), with the call's step when it has
 * one. A cache hit is stored too (latency 0), so every sample's transcript sits with it in the
 * ledger even when an earlier run (or the session a kill -9 cut short) paid for the call.
 */
export function roleCallRecords(owner: CallOwner, made: readonly MadeCall[], firstAttempt = 1): CallRecord[] {
  const records: CallRecord[] = [];
  let attempt = firstAttempt - 1;
  const { runId, modelId, sampleId, role, actor, repeat } = owner;
  for (const { step, request, outcome } of made) {
    const base = { runId, sampleId, modelId, role, ...(actor !== undefined ? { actor } : {}), ...(step !== undefined ? { step } : {}), ...repeatOf(repeat), cacheKey: outcome.cacheKey, request };
    if (outcome.attempts.length === 0) {
      records.push(withFields(base, { attempt: ++attempt, output: outcome.output, error: outcome.error, usage: outcome.usage, costUsd: outcome.costUsd, latencyMs: 0, startedAt: new Date().toISOString() }));
      continue;
    }
    for (const a of outcome.attempts) {
      records.push(withFields(base, { attempt: ++attempt, output: a.output, error: a.error, usage: a.output?.usage ?? {}, costUsd: a.costUsd, latencyMs: a.latencyMs, startedAt: a.startedAt }));
    }
  }
  return records;
}

/** A call record's `repeat` field: left out for the first (or only) answer, so a run without repeats stores its calls as before. */
export function repeatOf(repeat: number | undefined): { repeat?: number } {
  return repeat !== undefined && repeat > 0 ? { repeat } : {};
}
