import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { resumeRun, startRun } from '../../src/runner/run.js';
import type { RunRecord } from '../../src/store/records.js';
import { engineView, stopsInEvents } from '../../src/store/run-events.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { assay } from '../../src/testing/cli-harness.js';
import { OWN_TOOL_ENTRIES } from '../../src/testing/own-tool-set.js';

// A run recorded by an assay from before the run record's split holds everything in its `engine`
// column: this writes a run's column the way that version did and checks that it opens, reports
// exactly as before, and resumes.

const work = mkdtempSync(path.join(tmpdir(), 'assay-old-record-'));
after(() => rmSync(work, { recursive: true, force: true }));
const dataDir = path.join(work, 'no-data');
mkdirSync(dataDir);
const tools = path.join(work, 'tools.json');
writeFileSync(tools, JSON.stringify(OWN_TOOL_ENTRIES));
const engine: RunSpec['engine'] = { concurrency: 2, timeoutMs: 60_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false };
const spec: RunSpec = { task: 'metatool/similar', models: ['baseline:lexical'], seed: 3, options: { perTool: 2, tools, embedder: 'lexical' }, settings: {}, dataDir, engine };
const env = { ASSAY_DATA_DIR: dataDir, XDG_CACHE_HOME: path.join(work, 'cache') };
const STOP = { actor: 'baseline:lexical', role: 'test', kind: 'auth', message: 'HTTP 401 (recorded by the older assay)', count: 1 } as const;

/** What `runs --json` and `show --json` print of a run. */
async function printed(db: string, id: string): Promise<{ runs: string; show: string }> {
  const runs = await assay(['runs', '--db', db, '--json'], env);
  const show = await assay(['show', id, '--db', db, '--json'], env);
  assert.equal(runs.code, 0, runs.stderr);
  assert.equal(show.code, 0, show.stderr);
  return { runs: runs.stdout, show: show.stdout };
}

test('a run in the older layout (everything in engine) opens, reports byte for byte as before, and resumes', async () => {
  const db = path.join(work, 'runs.db');
  const store = await openSqliteStore(db);
  let id: string;
  let oldColumn: string;
  let provenance: RunRecord['provenance'];
  try {
    const summary = await startRun(spec, { store });
    assert.equal(summary.status, 'finished');
    id = summary.run;
    const run = await store.getRun(id);
    assert.ok(run);
    provenance = run.provenance;
    assert.equal(provenance.dataDir, dataDir);
    // What the older assay stored for this run: its settings, then its data dir, in one object.
    oldColumn = JSON.stringify({ ...engine, dataDir });
    assert.equal(JSON.stringify(engineView(run)), oldColumn, 'the view puts the parts back where they were');
  } finally {
    await store.close();
  }
  const before = await printed(db, id);

  const sql = new Database(db);
  try {
    sql.prepare('UPDATE runs SET engine = ? WHERE id = ?').run(oldColumn, id);
  } finally {
    sql.close();
  }
  assert.deepEqual(await printed(db, id), before, 'an older record prints exactly as the same run recorded now');

  // An older interrupted run with a fail-fast stop, and one sample's result missing.
  const interrupted = JSON.stringify({ ...engine, dataDir, failFastStops: [STOP] });
  const db2 = new Database(db);
  let removed: number;
  try {
    db2.prepare("UPDATE runs SET engine = ?, status = 'interrupted' WHERE id = ?").run(interrupted, id);
    removed = db2.prepare('DELETE FROM results WHERE run_id = ? AND sample_id = (SELECT min(sample_id) FROM results WHERE run_id = ?)').run(id, id).changes;
  } finally {
    db2.close();
  }
  assert.equal(removed, 1);
  const shown = JSON.parse((await assay(['show', id, '--db', db, '--json'], env)).stdout) as { fail_fast?: { actor: string; message: string }[] };
  assert.deepEqual(shown.fail_fast?.map((s) => [s.actor, s.message]), [[STOP.actor, STOP.message]], 'its stop is read from the older layout');
  const runs = JSON.parse((await assay(['runs', '--db', db, '--json'], env)).stdout) as { engine: unknown }[];
  assert.equal(JSON.stringify(runs[0]?.engine), interrupted, 'runs --json shows the older record as it is stored');

  const again = await openSqliteStore(db);
  try {
    const resumed = await resumeRun(id, {}, { store: again });
    assert.equal(resumed.status, 'finished');
    assert.equal(resumed.models['baseline:lexical']?.counts.samples, 20);
    assert.equal(resumed.models['baseline:lexical']?.counts.errors, 0);
    const run = await again.getRun(id);
    assert.ok(run);
    assert.deepEqual(run.engine, engine);
    assert.deepEqual(run.provenance, provenance, 'its data dir from the older layout, its checksums and versions from their columns');
    assert.deepEqual(run.events.map((e) => e.type), ['failFast', 'resumed', 'ended'], 'the older stop first, then what the resume appended');
    assert.deepEqual(stopsInEvents(run.events), [], 'the resume that finished cleared the stop');
  } finally {
    await again.close();
  }
  const column = new Database(db, { readonly: true });
  try {
    const stored = JSON.parse((column.prepare('SELECT engine FROM runs WHERE id = ?').get(id) as { engine: string }).engine) as { layout: number };
    assert.equal(stored.layout, 2, 'rewritten in the new layout once an event was appended');
  } finally {
    column.close();
  }
});
