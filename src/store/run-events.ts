import type { FailFastStop, ProvenanceDetails, RunEvent, RunRecord } from './records.js';

// What a run's events (`RunRecord.events`, appended in order) say now: read here, so no caller
// walks the list itself.

const keyOf = (stop: FailFastStop): string => JSON.stringify([stop.role, stop.actor, stop.kind, stop.message]);

/**
 * The models the run's sessions stopped early, as the events leave them: a session's end
 * (`ended`) replaces the stops before it, a queue worker's `failFast` adds its own (each stop
 * once: one of the same role, actor, kind and message as a recorded one is that one), and a new
 * submission to the queue clears them (its workers start every model again).
 */
export function stopsInEvents(events: readonly RunEvent[]): FailFastStop[] {
  let stops: FailFastStop[] = [];
  for (const event of events) {
    if (event.type === 'ended') stops = [...event.failFastStops];
    else if (event.type === 'submitted') stops = [];
    else if (event.type === 'failFast') stops = withStops(stops, event.stops);
  }
  return stops;
}

/** `stops` with `added` after them, each stop once. */
export function withStops(stops: readonly FailFastStop[], added: readonly FailFastStop[]): FailFastStop[] {
  const all = [...stops];
  const seen = new Set(stops.map(keyOf));
  for (const stop of added) {
    if (seen.has(keyOf(stop))) continue;
    seen.add(keyOf(stop));
    all.push(stop);
  }
  return all;
}

/** The stops of `added` the events do not record yet (what a `failFast` event appends, `appendRunEvents`). */
export function unrecordedStops(events: readonly RunEvent[], added: readonly FailFastStop[]): FailFastStop[] {
  const recorded = new Set(stopsInEvents(events).map(keyOf));
  return withStops([], added).filter((stop) => !recorded.has(keyOf(stop)));
}

/** The queue the run's units went to last (`assay run --queue`, or a resume on the queue with its `session`); undefined for a run that was never queued. */
export function queueOf(run: Pick<RunRecord, 'events'>): { readonly name: string; readonly session?: string } | undefined {
  const submitted = run.events.findLast((event) => event.type === 'submitted');
  return submitted?.type === 'submitted' ? { name: submitted.queue, ...(submitted.session !== undefined ? { session: submitted.session } : {}) } : undefined;
}

/**
 * The run's parts as one object in the shape runs recorded before the split (engine settings,
 * suite membership, data dir, modified data, declarations, queue, fail-fast stops, in that
 * order): what `show --json` and the report print as the run's `engine`, unchanged.
 */
export function engineView(run: Pick<RunRecord, 'engine' | 'suiteRun' | 'events'> & { readonly provenance: ProvenanceDetails }): Readonly<Record<string, unknown>> {
  const { dataDir, modifiedData, declarations } = run.provenance;
  const queue = queueOf(run);
  const stops = stopsInEvents(run.events);
  return {
    ...run.engine,
    ...(run.suiteRun !== undefined ? { suiteRun: run.suiteRun } : {}),
    ...(dataDir !== undefined ? { dataDir } : {}),
    ...(modifiedData !== undefined ? { modifiedData } : {}),
    ...(declarations !== undefined ? { declarations } : {}),
    ...(queue !== undefined ? { queue } : {}),
    ...(stops.length > 0 ? { failFastStops: stops } : {}),
  };
}

/**
 * The run record in the shape runs were printed in before its split (`assay runs --json`): every
 * field in its place, provenance's checksums and versions at the top level (`runRecordWithColumns`),
 * with `engineView` as `engine` and no `suiteRun`, `provenance` or `events`.
 */
export function runRecordView(run: RunRecord): Readonly<Record<string, unknown>> {
  const { suiteRun: _suiteRun, provenance: _provenance, events: _events, ...rest } = runRecordWithColumns(run);
  return { ...rest, engine: engineView(run) };
}

/**
 * The run record with its provenance's checksums and versions at the top level after `options`,
 * where the record held them before they moved into `provenance` (and where the runs table keeps
 * them): the shape `runs --json` prints and the run digest sums (`copy/run-digest.ts`), so
 * neither changed with the move.
 */
export function runRecordWithColumns(run: RunRecord): Readonly<Record<string, unknown>> {
  const { id, task, taskVersion, status, createdAt, updatedAt, models, settings, seed, options, provenance, ...after } = run;
  const { datasetChecksums, promptVersion, toolkitVersion, ...details } = provenance;
  return { id, task, taskVersion, status, createdAt, updatedAt, models, settings, seed, options, datasetChecksums, promptVersion, toolkitVersion, ...after, provenance: details };
}
