import { FAIL_FAST_STOPS_FIELD, type FailFastStop, type RunRecord } from './records.js';

const keyOf = (stop: FailFastStop): string => JSON.stringify([stop.role, stop.actor, stop.kind, stop.message]);

/**
 * The run's engine settings with `added` among the stops it records, each once (a stop of the same
 * role, actor, kind and message as one recorded already is that one): what `Store.stopRun` writes,
 * whatever the backend. Recorded stops that are not well-formed are dropped.
 */
export function engineWithStops(engine: RunRecord['engine'], added: readonly FailFastStop[]): RunRecord['engine'] {
  const recorded = Array.isArray(engine[FAIL_FAST_STOPS_FIELD]) ? (engine[FAIL_FAST_STOPS_FIELD] as unknown[]) : [];
  const stops: FailFastStop[] = recorded.filter(
    (v): v is FailFastStop => v !== null && typeof v === 'object' && typeof (v as FailFastStop).actor === 'string' && typeof (v as FailFastStop).kind === 'string' && typeof (v as FailFastStop).message === 'string',
  );
  const seen = new Set(stops.map(keyOf));
  for (const stop of added) {
    if (seen.has(keyOf(stop))) continue;
    seen.add(keyOf(stop));
    stops.push(stop);
  }
  return { ...engine, [FAIL_FAST_STOPS_FIELD]: stops };
}
