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

/** A suite run as its member runs tell it. */
export interface SuiteRunGroup {
  readonly suite: string;
  readonly entries: number;
  /** The newest run of each entry, by entry index. */
  readonly members: Map<number, RunRecord>;
  /** When its first run was created (ISO time, to the millisecond): when the suite run started. */
  readonly startedAt: string;
}

/**
 * The member runs of every suite run in the store, by suite-run id, newest suite run first (by
 * `startedAt`, then id); members by entry index. Not by id alone: an id's time stamp is to the
 * second, so two suite runs started within one second would be ordered by their random suffix.
 */
export function suiteRunsIn(runs: readonly RunRecord[]): Map<string, SuiteRunGroup> {
  const byId = new Map<string, { suite: string; entries: number; members: Map<number, RunRecord>; startedAt: string }>();
  const sorted = [...runs].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  for (const run of sorted) {
    const m = membershipOf(run);
    if (!m) continue;
    const group = byId.get(m.id) ?? { suite: m.suite, entries: m.entries, members: new Map<number, RunRecord>(), startedAt: run.createdAt };
    // The newest run of an entry stands for it (a suite resume could start one again).
    if (!group.members.has(m.entry)) group.members.set(m.entry, run);
    // Newest first: the last seen is the oldest.
    group.startedAt = run.createdAt;
    byId.set(m.id, group);
  }
  return new Map([...byId.entries()].sort(([a, ga], [b, gb]) => newestFirst(ga.startedAt, gb.startedAt) || newestFirst(a, b)));
}

/** Whether suite run `a` started before suite run `b` (`SuiteRunGroup.startedAt`, then id). */
export function startedBefore(a: { id: string; startedAt: string }, b: { id: string; startedAt: string }): boolean {
  return a.startedAt < b.startedAt || (a.startedAt === b.startedAt && a.id < b.id);
}

const newestFirst = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);
