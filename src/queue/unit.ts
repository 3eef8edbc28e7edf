import { createHash } from 'node:crypto';

/**
 * One unit of work of a queued run: one sample on one model (and, for an engine that repeats a
 * sample, one repeat; assay's engine has none today, so it is always 0). The store keys a result
 * by (run, sample, model) — the same fields the job id is hashed from — so a unit has one job id
 * and one result row, and a redelivered job finds the row its first delivery wrote.
 */
export interface Unit {
  readonly runId: string;
  readonly sampleId: string;
  readonly modelId: string;
  readonly repeat: number;
}

/**
 * The unit's BullMQ job id: sha256 of its fields as a JSON array (no separator a sample id could
 * contain can make two units collide), hex, prefixed so it is never all digits (BullMQ refuses
 * integer-like custom ids) and without `:` (its key separator). Adding the same id twice adds
 * one job: a submission retried after a lost reply enqueues nothing twice.
 */
export function unitJobId(unit: Unit): string {
  const hash = createHash('sha256').update(JSON.stringify([unit.runId, unit.sampleId, unit.modelId, unit.repeat])).digest('hex');
  return `u${hash}`;
}

/** The job's data: the unit and nothing else (samples, models and settings are in the store). */
export function isUnit(data: unknown): data is Unit {
  const d = data as Partial<Unit> | null;
  return typeof d === 'object' && d !== null && typeof d.runId === 'string' && typeof d.sampleId === 'string' && typeof d.modelId === 'string' && Number.isInteger(d.repeat);
}
