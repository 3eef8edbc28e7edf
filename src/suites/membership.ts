import { randomBytes } from 'node:crypto';
import type { RunRecord, SuiteMembership } from '../store/records.js';

/** What a member run records of its suite run (`RunRecord.suiteRun`): declared with the run record, so a suite run needs no table of its own — its members are the runs that carry its id. */
export type { SuiteMembership } from '../store/records.js';

/** A new suite-run id, sortable by time like run ids. */
export function newSuiteRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `suite-${stamp}-${randomBytes(2).toString('hex')}`;
}

/** The membership a run records (absent, or written by another version in another shape: undefined; the store's codec reads it). */
export function membershipOf(run: RunRecord): SuiteMembership | undefined {
  return run.suiteRun;
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
