// How a run record's typed parts (`RunParts`: engine settings, suite membership, provenance,
// events; see `run-parts.ts`) are stored in the runs table's `engine` JSON column, for both SQL
// stores (`row-codec.ts` calls it). The one place that reads the older layout too: before the
// parts were split, the column held one loose object — the engine settings with the data dir,
// modified data, declarations, suite membership, queue and the last session's fail-fast stops
// beside them as keys — and `decodeRunParts` maps such a record to the parts, so every stored run
// opens, resumes and reports. A record is rewritten in the new layout the first time an event is
// appended to it.
import { ENGINE_SETTING_KEYS } from '../core/engine-settings-check.js';
import { isJsonObject } from '../core/json-object.js';
import type { FailFastStop, ProvenanceDetails, RecordedEngine, RunEvent, RunRecord } from './records.js';
import { unrecordedStops } from './run-events.js';
import { failFastStopOf, modifiedDataOf, recordedModelOf, runEventOf, suiteMembershipOf } from './run-part-reads.js';

/** The parts of a run record stored in its `engine` column: all but provenance's checksums and versions, which have columns of their own. */
export type RunParts = Pick<RunRecord, 'engine' | 'suiteRun' | 'events'> & { readonly provenance: ProvenanceDetails };

/** The marker of the layout this version writes (`{"layout": 2, "engine": …, "provenance": …, "events": […]}`); a record without it is of the older layout. */
export const RUN_PARTS_LAYOUT = 2;

/** The parts as the column's JSON text (of a whole run's provenance, only the details: its checksums and versions are in their columns). */
export function encodeRunParts(parts: RunParts): string {
  const { dataDir, modifiedData, declarations } = parts.provenance;
  return JSON.stringify({
    layout: RUN_PARTS_LAYOUT,
    engine: parts.engine,
    ...(parts.suiteRun !== undefined ? { suiteRun: parts.suiteRun } : {}),
    provenance: { dataDir, modifiedData, declarations },
    events: parts.events,
  });
}

/**
 * The parts from the column's JSON text, of either layout. Read defensively, as before the split:
 * a value that is not well-formed (hand-edited, or written by another version) is left out, a key
 * this version does not know is dropped. Engine settings are kept as written and checked where a
 * session uses them (`checkEngineSettings`), which names a wrong one.
 */
export function decodeRunParts(text: string): RunParts {
  const value: unknown = JSON.parse(text);
  if (!isJsonObject(value)) return { engine: {}, provenance: {}, events: [] };
  return value['layout'] === RUN_PARTS_LAYOUT ? fromLayout(value) : fromEngineRecord(value);
}

/**
 * Only the events of the column's text, as `decodeRunParts(text).events` reads them: what a unit's
 * start state keeps (`Store.unitStartState`, read for every unit a queue worker runs), without
 * rebuilding the engine settings and provenance it drops.
 */
export function decodeRunEvents(text: string): RunEvent[] {
  const value: unknown = JSON.parse(text);
  if (!isJsonObject(value)) return [];
  return value['layout'] === RUN_PARTS_LAYOUT ? eventsOf(value['events']) : eventsOfEngineRecord(value);
}

/**
 * The column's text with `events` appended (a record of the older layout comes back in the new
 * one). A `failFast` event keeps only the stops the run does not record yet, and is left out when
 * none is left: two workers stopping one model for one reason record it once.
 */
export function appendRunEvents(text: string, events: readonly RunEvent[]): string {
  const parts = decodeRunParts(text);
  const all = [...parts.events];
  for (const event of events) {
    if (event.type !== 'failFast') all.push(event);
    else {
      const fresh = unrecordedStops(all, event.stops);
      if (fresh.length > 0) all.push({ ...event, stops: fresh });
    }
  }
  return encodeRunParts({ ...parts, events: all });
}

function fromLayout(stored: Record<string, unknown>): RunParts {
  const suiteRun = suiteMembershipOf(stored['suiteRun']);
  const provenance = isJsonObject(stored['provenance']) ? stored['provenance'] : {};
  return {
    engine: engineOf(isJsonObject(stored['engine']) ? stored['engine'] : {}),
    ...(suiteRun !== undefined ? { suiteRun } : {}),
    provenance: provenanceOf(provenance),
    events: eventsOf(stored['events']),
  };
}

/** The well-formed events of a stored list, in order. */
function eventsOf(stored: unknown): RunEvent[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((event) => {
    const read = runEventOf(event);
    return read !== undefined ? [read] : [];
  });
}

/**
 * A record of the older layout: the engine settings are its keys that `engineSettingsSchema`
 * declares; `suiteRun` its suite membership; `dataDir`, `modifiedData` and `declarations` its
 * provenance; `queue` (`{name, session?}`) a `submitted` event and `failFastStops` a `failFast`
 * event after it (the older layout kept no times, so these events have none).
 */
function fromEngineRecord(old: Record<string, unknown>): RunParts {
  const suiteRun = suiteMembershipOf(old['suiteRun']);
  return { engine: engineOf(old), ...(suiteRun !== undefined ? { suiteRun } : {}), provenance: provenanceOf(old), events: eventsOfEngineRecord(old) };
}

/** The events a record of the older layout implies (see `fromEngineRecord`). */
function eventsOfEngineRecord(old: Record<string, unknown>): RunEvent[] {
  const events: RunEvent[] = [];
  const queue = old['queue'];
  if (isJsonObject(queue) && typeof queue['name'] === 'string') {
    events.push({ type: 'submitted', queue: queue['name'], ...(typeof queue['session'] === 'string' ? { session: queue['session'] } : {}) });
  }
  const stops = stopsOf(old['failFastStops']);
  if (stops.length > 0) events.push({ type: 'failFast', stops });
  return events;
}

/** The engine settings among `value`'s keys, in their stored order. */
function engineOf(value: Record<string, unknown>): RecordedEngine {
  const known = new Set<string>(ENGINE_SETTING_KEYS);
  return Object.fromEntries(Object.entries(value).filter(([key]) => known.has(key))) as RecordedEngine;
}

function provenanceOf(value: Record<string, unknown>): ProvenanceDetails {
  const dataDir = value['dataDir'];
  const modified = Array.isArray(value['modifiedData']) ? value['modifiedData'].flatMap((m) => {
    const read = modifiedDataOf(m);
    return read !== undefined ? [read] : [];
  }) : [];
  const declared = isJsonObject(value['declarations'])
    ? Object.entries(value['declarations']).flatMap(([name, d]) => {
        const read = recordedModelOf(d);
        return read !== undefined ? [[name, read] as const] : [];
      })
    : [];
  return {
    ...(typeof dataDir === 'string' ? { dataDir } : {}),
    ...(modified.length > 0 ? { modifiedData: modified } : {}),
    ...(declared.length > 0 ? { declarations: Object.fromEntries(declared) } : {}),
  };
}

function stopsOf(value: unknown): FailFastStop[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((stop) => {
    const read = failFastStopOf(stop);
    return read !== undefined ? [read] : [];
  });
}
