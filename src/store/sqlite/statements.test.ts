import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from './sqlite-store.js';
import { SQL } from './statements.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-plan-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The query plan of one statement, as SQLite's one-line details joined with " | ". */
function plan(db: Database.Database, sql: string, ...params: unknown[]): string {
  return db
    .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...params)
    .map((row) => row.detail)
    .join(' | ');
}

// A full scan of `calls` would read every stored request of every run: each lookup must use an index.
test('the read and update statements use indexes, never a scan of calls or results', async () => {
  const file = join(dir, 'plan.db');
  await (await openSqliteStore(file)).close();
  const db = new Database(file, { readonly: true });
  try {
    assert.equal(plan(db, SQL.selectCachedMerged, 'k'), 'SEARCH k USING PRIMARY KEY (cache_key=?) | SEARCH c USING INTEGER PRIMARY KEY (rowid=?)');
    assert.equal(plan(db, SQL.selectCallOutput, 1), 'SEARCH calls USING INTEGER PRIMARY KEY (rowid=?)');
    // A merge reads only the calls saved since the last one (a rowid range), sorted by key.
    assert.match(plan(db, SQL.mergeCallCache, { from: 0, to: 1 }), /^SEARCH calls USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\) \| USE TEMP B-TREE FOR ORDER BY/);
    assert.match(plan(db, SQL.selectCalls, { runId: 'r', sampleId: null }), /^SEARCH c USING INDEX calls_by_run \(run_id=\?\)/);
    assert.match(plan(db, SQL.selectCallsOf, { runId: 'r', sampleIds: '["s"]' }), /^SEARCH c USING INDEX calls_by_run \(run_id=\?\)/);
    // Results by sample position (a page, or the whole run): the samples' position index, then each sample's results.
    assert.match(
      plan(db, SQL.selectResults, { runId: 'r', modelId: null, from: 0, to: 1 }),
      /SEARCH s USING INDEX sqlite_autoindex_samples_2 \(run_id=\? AND idx>\? AND idx<\?\) \| SEARCH r USING INDEX sqlite_autoindex_results_1 \(run_id=\? AND sample_id=\?\)/,
    );
    assert.equal(plan(db, SQL.selectSamples, { runId: 'r', from: 0, to: 1 }), 'SEARCH samples USING INDEX sqlite_autoindex_samples_2 (run_id=? AND idx>? AND idx<?)');
    assert.equal(plan(db, SQL.selectFinished, { runId: 'r', modelId: 'm', includeErrors: 1, repeat: 0 }), 'SEARCH results USING INDEX sqlite_autoindex_results_1 (run_id=?)');
    assert.equal(
      plan(db, SQL.updateScore, '{}', 'r', 'm', 's', 0),
      'SEARCH results USING INDEX sqlite_autoindex_results_1 (run_id=? AND sample_id=? AND model_id=? AND repeat=?)',
    );
    for (const [name, sql] of Object.entries(SQL)) {
      if (!/^\s*(SELECT|UPDATE)/.test(sql)) continue;
      const params = (sql.match(/\?/g) ?? []).map(() => 'x');
      const named = /@\w+/.test(sql) ? [{ runId: 'r', modelId: 'm', sampleId: 's', includeErrors: 1, repeat: 0, prefix: 'p', holderId: 'h', now: 1, expiresAt: 2, stops: null, sampleIds: '[]', role: 'judge', from: 0, to: 1, status: 'running', engine: '{}', updatedAt: 'x' }] : params;
      assert.doesNotMatch(plan(db, sql, ...named), /SCAN (calls|results|c|r)\b/, name);
    }
  } finally {
    db.close();
  }
});
