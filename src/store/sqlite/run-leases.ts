import type Database from 'better-sqlite3';
import { InputError } from '../../core/errors.js';
import { checkTtl } from '../checks.js';
import type { LeaseClaim, LeaseHolder, RunEnd, RunLease } from '../records.js';
import { appendRunEvents } from '../run-record-codec.js';
import { SQL } from './statements.js';

/** A `run_leases` row exactly as SQLite returns it (times in epoch ms). */
interface LeaseRow {
  run_id: string;
  holder_id: string;
  pid: number;
  host: string;
  acquired_at: number;
  heartbeat_at: number;
  expires_at: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function leaseFromRow(row: LeaseRow): RunLease {
  return {
    runId: row.run_id,
    holder: { id: row.holder_id, pid: row.pid, host: row.host },
    acquiredAt: iso(row.acquired_at),
    heartbeatAt: iso(row.heartbeat_at),
    expiresAt: iso(row.expires_at),
  };
}

/**
 * The run leases of a SQLite store (see `RunLease`). Each operation is one IMMEDIATE
 * transaction: BEGIN IMMEDIATE takes the file's write lock before the lease is read, so two
 * processes acquiring at once are serialized and the second sees the first's lease.
 */
export class RunLeases {
  private readonly selectLease: Database.Statement<[string], LeaseRow>;
  private readonly acquireTx: Database.Transaction<(runId: string, holder: LeaseHolder, ttlMs: number) => LeaseClaim>;
  private readonly renewTx: Database.Transaction<(runId: string, holderId: string, ttlMs: number) => boolean>;
  private readonly releaseTx: Database.Transaction<(runId: string, holderId: string, end: RunEnd | undefined) => boolean>;

  constructor(
    db: Database.Database,
    private readonly file: string,
    /** Milliseconds since the epoch; injectable so tests can expire a lease without waiting. */
    private readonly clock: () => number,
  ) {
    this.selectLease = db.prepare(SQL.selectLease);
    const selectRun = db.prepare<[string], unknown>(SQL.selectRun);
    const upsertLease = db.prepare(SQL.upsertLease);
    const renewLease = db.prepare(SQL.renewLease);
    const deleteLease = db.prepare<[string, string]>(SQL.deleteLease);
    const selectRunParts = db.prepare<[string], { engine: string }>(SQL.selectRunParts);
    const updateRunParts = db.prepare<[{ runId: string; status: string; engine: string; updatedAt: string }]>(SQL.updateRunParts);

    this.acquireTx = db.transaction((runId: string, holder: LeaseHolder, ttlMs: number): LeaseClaim => {
      if (selectRun.get(runId) === undefined) throw new InputError(`no run ${runId} in ${this.file}`, { file: this.file });
      const now = this.clock();
      const current = this.selectLease.get(runId);
      if (current && current.holder_id !== holder.id && current.expires_at > now) return { acquired: false, heldBy: leaseFromRow(current) };
      upsertLease.run({ runId, holderId: holder.id, pid: holder.pid, host: holder.host, now, expiresAt: now + ttlMs });
      const lease = leaseFromRow(this.selectLease.get(runId) as LeaseRow);
      const tookOver = current && current.holder_id !== holder.id ? leaseFromRow(current) : undefined;
      return { acquired: true, lease, ...(tookOver ? { tookOverFrom: tookOver } : {}) };
    });
    this.renewTx = db.transaction((runId: string, holderId: string, ttlMs: number): boolean => {
      const now = this.clock();
      return renewLease.run({ runId, holderId, now, expiresAt: now + ttlMs }).changes === 1;
    });
    this.releaseTx = db.transaction((runId: string, holderId: string, end: RunEnd | undefined): boolean => {
      if (deleteLease.run(runId, holderId).changes !== 1) return false;
      const parts = end !== undefined ? selectRunParts.get(runId) : undefined;
      if (end !== undefined && parts !== undefined) {
        // How the session ends, appended to the run's events (`ended`).
        const at = new Date(this.clock()).toISOString();
        const engine = appendRunEvents(parts.engine, [{ type: 'ended', at, ...end }]);
        updateRunParts.run({ runId, status: end.status, engine, updatedAt: at });
      }
      return true;
    });
  }

  acquire(runId: string, holder: LeaseHolder, ttlMs: number): LeaseClaim {
    checkTtl(ttlMs);
    return this.acquireTx.immediate(runId, holder, ttlMs);
  }

  renew(runId: string, holderId: string, ttlMs: number): boolean {
    checkTtl(ttlMs);
    return this.renewTx.immediate(runId, holderId, ttlMs);
  }

  release(runId: string, holderId: string, end?: RunEnd): boolean {
    return this.releaseTx.immediate(runId, holderId, end);
  }

  get(runId: string): (RunLease & { live: boolean }) | undefined {
    const row = this.selectLease.get(runId);
    return row ? { ...leaseFromRow(row), live: row.expires_at > this.clock() } : undefined;
  }
}
