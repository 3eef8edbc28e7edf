import { FAIL_FAST_STOPS_FIELD, type FailFastStop, type RunRecord } from './records.js';

/** A recorded stop read back from a run's engine JSON, checked (older or hand-edited records are read defensively). */
export function isFailFastStop(v: unknown): v is FailFastStop {
  if (v === null || typeof v !== 'object') return false;
  const s = v as Partial<Record<keyof FailFastStop, unknown>>;
  return typeof s.actor === 'string' && typeof s.role === 'string' && typeof s.kind === 'string' && typeof s.message === 'string' && typeof s.count === 'number';
}

const keyOf = (stop: FailFastStop): string => JSON.stringify([stop.role, stop.actor, stop.kind, stop.message]);

/**
 * The run's engine settings with `added` among the stops it records, each once (a stop of the same
 * role, actor, kind and message as one recorded already is that one): what `Store.stopRun` writes,
 * whatever the backend. Recorded stops that are not well-formed are dropped.
 */
export function engineWithStops(engine: RunRecord['engine'], added: readonly FailFastStop[]): RunRecord['engine'] {
  const recorded = Array.isArray(engine[FAIL_FAST_STOPS_FIELD]) ? (engine[FAIL_FAST_STOPS_FIELD] as unknown[]) : [];
  const stops = recorded.filter(isFailFastStop);
  const seen = new Set(stops.map(keyOf));
  for (const stop of added) {
    if (seen.has(keyOf(stop))) continue;
    seen.add(keyOf(stop));
    stops.push(stop);
  }
  return { ...engine, [FAIL_FAST_STOPS_FIELD]: stops };
}

/**
 * The models the run's last session stopped early, as recorded with the run (`RunEnd`); none
 * while a later session is running (its own end will say), and none for runs made before assay
 * kept them.
 */
export function recordedStops(run: Pick<RunRecord, 'engine' | 'status'>): FailFastStop[] {
  const value = run.engine[FAIL_FAST_STOPS_FIELD];
  if (run.status === 'running' || !Array.isArray(value)) return [];
  return value.filter(isFailFastStop);
}

/** The run as the store holds it once a session that stopped these models has ended. */
export function withRecordedStops<R extends Pick<RunRecord, 'engine'>>(run: R, stops: readonly FailFastStop[]): R {
  const { [FAIL_FAST_STOPS_FIELD]: _previous, ...engine } = run.engine;
  return { ...run, engine: stops.length > 0 ? { ...engine, [FAIL_FAST_STOPS_FIELD]: stops } : engine };
}
