import { createHash } from 'node:crypto';

/**
 * One unit of work of a queued run: one sample on one model, one repeat of it (`--repeats`: 0 …
 * k − 1; 0 for a run without repeats). The store keys a result by (run, sample, model, repeat) —
 * the same fields the job id is hashed from — so a unit has one job id
 * and one result row, and a redelivered job finds the row its first delivery wrote.
 */
export interface Unit {
  readonly runId: string;
  readonly sampleId: string;
  readonly modelId: string;
  readonly repeat: number;
  /**
   * The submission a unit was queued by, when it is a resume's (`assay resume --queue`): a
   * token of its own, so its jobs are new ones (not those of the first submission, which BullMQ
   * may still hold as failed) and workers rebuild the run's session with its new settings.
   * Absent for the first submission.
   */
  readonly session?: string;
}

/**
 * The unit's identity, whatever submission queued it: `u` + sha256 of `[run, sample, model,
 * repeat]` as a JSON array (no separator a sample id could contain can make two units collide),
 * hex, so it is never all digits (BullMQ refuses integer-like custom ids) and has no `:` (its key
 * separator). What a run's completion counts (`run-completion.ts`).
 */
export function unitKey(unit: Unit): string {
  return `u${createHash('sha256').update(JSON.stringify([unit.runId, unit.sampleId, unit.modelId, unit.repeat])).digest('hex')}`;
}

/**
 * The unit's BullMQ job id: its key for the first submission (adding the same id twice adds one
 * job: a submission retried after a lost reply enqueues nothing twice); for a resume's, the hash
 * also covers the resume's token, so the same unit queued again is a new job.
 */
export function unitJobId(unit: Unit): string {
  if (unit.session === undefined) return unitKey(unit);
  return `u${createHash('sha256').update(JSON.stringify([unit.runId, unit.sampleId, unit.modelId, unit.repeat, unit.session])).digest('hex')}`;
}

/** The job's data: the unit and nothing else (samples, models and settings are in the store). */
export function isUnit(data: unknown): data is Unit {
  const d = data as Partial<Unit> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.runId === 'string' &&
    typeof d.sampleId === 'string' &&
    typeof d.modelId === 'string' &&
    Number.isInteger(d.repeat) &&
    (d.session === undefined || typeof d.session === 'string')
  );
}
