import type Database from 'better-sqlite3';

/**
 * Where a run's calls sit in its sample order, for reading the run in slices (`runSlice`). The
 * `calls` table has no index by sample (one would cost every saved call on the hot path, see
 * migrations.ts), so finding one slice's calls would read every call row of the run, for every
 * slice: a 30,000-sample run in slices of 100 took 104 s, against 34 s in slices of 5,000. This
 * keeps (sample position, call id) for one run in a temporary table of this connection (on
 * disk, as SQLite's temporary files: memory stays flat), filled by one pass over the run's calls;
 * each slice then reads its calls by that table's key and the calls' rowids. It is filled again
 * when the run's calls change: their count or newest id, read from the `calls_by_run` index alone.
 */
export class CallPositions {
  private readonly count: Database.Statement<[string], { n: number; last: number }>;
  private readonly clear: Database.Statement<[]>;
  private readonly fill: Database.Statement<[string]>;
  private readonly slice: Database.Statement<[{ runId: string; from: number; to: number }], unknown>;
  /** The run the table holds, as it was when filled. */
  private filled: { runId: string; n: number; last: number } | undefined;

  constructor(private readonly db: Database.Database) {
    db.exec('CREATE TEMP TABLE IF NOT EXISTS call_positions (idx INTEGER NOT NULL, call_id INTEGER NOT NULL, PRIMARY KEY (idx, call_id)) WITHOUT ROWID');
    this.count = db.prepare('SELECT count(*) AS n, coalesce(max(id), 0) AS last FROM calls WHERE run_id = ?');
    this.clear = db.prepare('DELETE FROM temp.call_positions');
    this.fill = db.prepare(`INSERT INTO temp.call_positions (idx, call_id)
                              SELECT s.idx, c.id FROM calls c CROSS JOIN samples s ON s.run_id = c.run_id AND s.sample_id = c.sample_id
                              WHERE c.run_id = ?`);
    this.slice = db.prepare(`SELECT c.*, s.input AS sample_input FROM temp.call_positions p
                               CROSS JOIN calls c ON c.id = p.call_id
                               CROSS JOIN samples s ON s.run_id = @runId AND s.idx = p.idx
                             WHERE p.idx >= @from AND p.idx < @to
                             ORDER BY p.idx, p.call_id`);
  }

  /** The rows of the run's calls whose samples are at positions `from` … `to − 1`: sample order, then save order. */
  rows<Row>(runId: string, from: number, to: number): Row[] {
    const now = this.count.get(runId) ?? { n: 0, last: 0 };
    const filled = this.filled;
    if (filled === undefined || filled.runId !== runId || filled.n !== now.n || filled.last !== now.last) {
      this.db.transaction(() => {
        this.clear.run();
        this.fill.run(runId);
      })();
      this.filled = { runId, ...now };
    }
    return this.slice.all({ runId, from, to }) as Row[];
  }
}
