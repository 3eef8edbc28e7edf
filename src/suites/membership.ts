import { randomBytes } from 'node:crypto';
import type { RunRecord } from '../store/records.js';

/**
 * The key of a member run's engine record that says which suite run it belongs to. The engine
 * record keeps keys it does not know (as `failFastStops` and `queue`), so a suite run needs no
 * table of its own: its members are the runs that carry its id here.
 */
export const SUITE_RUN_FIELD = 'suiteRun';

/** What a member run records of its suite run (`engine.suiteRun`). */
export interface SuiteMembership {
  /** The suite run's id (`suite-YYYYMMDD-HHMMSS-xxxx`): `assay run --suite` prints it. */
  readonly id: string;
  /** The suite's name in the config file. */
  readonly suite: string;
  /** The entry's index in the suite's `tasks:` (0-based). */
  readonly entry: number;
  /** How many entries the suite had when the suite run started. */
  readonly entries: number;
}

/** A new suite-run id, sortable by time like run ids. */
export function newSuiteRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `suite-${stamp}-${randomBytes(2).toString('hex')}`;
}

/** The membership a run records, read defensively (absent, or written by another version: undefined). */
export function membershipOf(run: RunRecord): SuiteMembership | undefined {
  const value = (run.engine as Record<string, unknown>)[SUITE_RUN_FIELD];
  if (value === null || typeof value !== 'object') return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m['id'] !== 'string' || typeof m['suite'] !== 'string' || typeof m['entry'] !== 'number' || typeof m['entries'] !== 'number') return undefined;
  return { id: m['id'], suite: m['suite'], entry: m['entry'], entries: m['entries'] };
}

/** The member runs of every suite run in the store, by suite-run id, newest suite run first; members by entry index. */
export function suiteRunsIn(runs: readonly RunRecord[]): Map<string, { readonly suite: string; readonly entries: number; readonly members: Map<number, RunRecord> }> {
  const byId = new Map<string, { suite: string; entries: number; members: Map<number, RunRecord> }>();
  const sorted = [...runs].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  for (const run of sorted) {
    const m = membershipOf(run);
    if (!m) continue;
    const group = byId.get(m.id) ?? { suite: m.suite, entries: m.entries, members: new Map<number, RunRecord>() };
    // The newest run of an entry stands for it (a suite resume could start one again).
    if (!group.members.has(m.entry)) group.members.set(m.entry, run);
    byId.set(m.id, group);
  }
  // Newest suite run first: ids sort by their time stamp.
  return new Map([...byId.entries()].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0)));
}
