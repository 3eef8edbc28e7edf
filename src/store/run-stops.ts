import type { FailFastStop, RunRecord } from './records.js';
import { stopsInEvents } from './run-events.js';

/**
 * The models the run's last session stopped early, as its events record them (`stopsInEvents`);
 * none while a later session is running (its own end will say), and none for runs made before
 * assay kept them.
 */
export function recordedStops(run: Pick<RunRecord, 'events' | 'status'>): FailFastStop[] {
  return run.status === 'running' ? [] : stopsInEvents(run.events);
}

/** The run as the store holds it once a session that ended with its status, having stopped these models, is recorded (its `ended` event appended). */
export function withRecordedStops<R extends Pick<RunRecord, 'events' | 'status'>>(run: R, stops: readonly FailFastStop[]): R {
  return { ...run, events: [...run.events, { type: 'ended', status: run.status, failFastStops: stops }] };
}
