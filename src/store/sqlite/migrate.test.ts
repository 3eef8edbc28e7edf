import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { InputError } from '../../core/errors.js';
import { MIGRATIONS, LATEST_SCHEMA_VERSION, type Migration } from './migrations.js';
import { openDatabase } from './open-database.js';
import { openSqliteStore } from './sqlite-store.js';
import { applyMigrations } from './migrate.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-migrate-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Reads pragmas and table names through a separate, plain connection. */
function inspect(file: string): { version: number; applicationId: number; journalMode: string; tables: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      applicationId: db.pragma('application_id', { simple: true }) as number,
      journalMode: db.pragma('journal_mode', { simple: true }) as string,
      tables: db
        .prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .pluck()
        .all(),
    };
  } finally {
    db.close();
  }
}

/** Asserts that `promise` rejects with an InputError whose message matches every pattern. */
async function rejectsWithInputError(promise: Promise<unknown>, ...patterns: RegExp[]): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof InputError, `expected an InputError, got ${String(error)}`);
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

test('the migration list is numbered 1..n and LATEST_SCHEMA_VERSION is its last entry', () => {
  assert.deepEqual(
    MIGRATIONS.map((m) => m.version),
    Array.from({ length: MIGRATIONS.length }, (_, i) => i + 1),
  );
  assert.equal(LATEST_SCHEMA_VERSION, MIGRATIONS.length);
});

test('a fresh database (in a folder that does not exist yet) gets the latest schema, WAL and the assay application id', async () => {
  const file = join(dir, 'fresh', 'nested', 'assay.db');
  const store = await openSqliteStore(file);
  await store.close();
  const info = inspect(file);
  assert.equal(info.version, LATEST_SCHEMA_VERSION);
  assert.equal(info.applicationId, 0x41535359); // "ASSY"
  assert.equal(info.journalMode, 'wal'); // WAL is persistent, so a new connection sees it
  assert.deepEqual(info.tables, ['call_cache', 'call_cache_watermark', 'calls', 'results', 'reviews', 'run_leases', 'run_texts', 'runs', 'samples', 'suite_runs']);
});

test('a connection runs with the settings the store relies on (durability, foreign keys, a 1 MB page cache)', () => {
  const db = openDatabase(join(dir, 'pragmas.db'));
  try {
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('synchronous', { simple: true }), 1); // NORMAL
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(db.pragma('busy_timeout', { simple: true }), 5000);
    assert.equal(db.pragma('cache_size', { simple: true }), -1000);
  } finally {
    db.close();
  }
});

test('reopening an up-to-date database changes nothing', async () => {
  const file = join(dir, 'reopen.db');
  await (await openSqliteStore(file)).close();
  await (await openSqliteStore(file)).close();
  assert.equal(inspect(file).version, LATEST_SCHEMA_VERSION);
});

test('a database with a newer schema version is refused with an upgrade hint', async () => {
  const file = join(dir, 'future.db');
  const db = new Database(file);
  db.pragma('application_id = 1095979865'); // 0x41535359, an assay store…
  db.pragma('user_version = 99'); // …written by a future assay
  db.close();
  await rejectsWithInputError(
    openSqliteStore(file),
    new RegExp(`^database ${escapeRegExp(file)} has schema version 99; this assay understands up to ${LATEST_SCHEMA_VERSION} — upgrade assay$`),
  );
  assert.equal(inspect(file).version, 99); // untouched
});

test('a file that is not a SQLite database is refused with a message naming it', async () => {
  const file = join(dir, 'results.jsonl');
  const text = '{"sample":"a","output":"yes"}\n'.repeat(200);
  writeFileSync(file, text);
  await rejectsWithInputError(openSqliteStore(file), new RegExp(`^${escapeRegExp(file)} is not a SQLite database`));
  assert.equal(readFileSync(file, 'utf8'), text); // and left as it was
});

test('a SQLite database of another program is refused and left untouched', async () => {
  const file = join(dir, 'other-app.db');
  const db = new Database(file);
  db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
  db.close();
  await rejectsWithInputError(openSqliteStore(file), new RegExp(`^database ${escapeRegExp(file)} is a SQLite file with other tables \\(customers\\)`));
  assert.deepEqual(inspect(file).tables, ['customers']);
});

test('a SQLite database with a foreign application id is refused', async () => {
  const file = join(dir, 'foreign-id.db');
  const db = new Database(file);
  db.pragma('application_id = 42');
  db.close();
  await rejectsWithInputError(openSqliteStore(file), /application_id 42/, new RegExp(escapeRegExp(file)));
});

test('a directory given as the database path is an InputError naming it', async () => {
  const folder = join(dir, 'a-folder.db');
  mkdirSync(folder);
  await rejectsWithInputError(openSqliteStore(folder), new RegExp(`^cannot open database ${escapeRegExp(folder)}`));
});

// Hand-written migration lists exercising the upgrade machinery independently of the real schema.
const m1: Migration = { version: 1, description: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);' };
const m2: Migration = { version: 2, description: 'tags', sql: 'CREATE TABLE tags (note_id INTEGER, tag TEXT); ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;' };
const m2Broken: Migration = { version: 2, description: 'broken', sql: 'CREATE TABLE tags (note_id INTEGER, tag TEXT); ALTER TABLE no_such_table ADD COLUMN x INTEGER;' };

test('opening an old database applies only the missing migrations and keeps its data', async () => {
  const file = join(dir, 'upgrade.db');
  openDatabase(file, [m1]).close();
  assert.equal(inspect(file).version, 1);
  const db = new Database(file);
  db.prepare('INSERT INTO notes (text) VALUES (?)').run('kept');
  db.close();

  openDatabase(file, [m1, m2]).close(); // m1 must not run again (CREATE TABLE would fail)
  const info = inspect(file);
  assert.equal(info.version, 2);
  assert.deepEqual(info.tables, ['notes', 'tags']);
  const check = new Database(file, { readonly: true });
  assert.deepEqual(check.prepare('SELECT text, pinned FROM notes').all(), [{ text: 'kept', pinned: 0 }]);
  check.close();
});

test('a failing migration rolls back completely and leaves the version as it was', async () => {
  const file = join(dir, 'broken-upgrade.db');
  openDatabase(file, [m1]).close();
  assert.throws(() => openDatabase(file, [m1, m2Broken]), /migration 2 \(broken\) failed on database .*no such table: no_such_table/);
  const info = inspect(file);
  assert.equal(info.version, 1);
  assert.deepEqual(info.tables, ['notes']); // the `tags` table of the failed migration is gone too
});

test('a migration list with a gap is rejected as a programming error', async () => {
  const file = join(dir, 'gap.db');
  assert.throws(() => openDatabase(file, [m1, { ...m2, version: 3 }]), /entry 1 has version 3, expected 2/);
});

/** Escapes a path for use inside a RegExp. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('a version-1 store (made before judging existed) upgrades to the latest version and keeps its runs', async () => {
  const file = join(dir, 'v1.db');
  const db = new Database(file);
  applyMigrations(db, file, MIGRATIONS.slice(0, 1));
  db.prepare(
    `INSERT INTO runs VALUES ('r1', 'metatool/similar', '1', 'finished', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '["baseline:lexical"]', '{}', 0, '{}', '{}', 'p', '0.1.0', '{}')`,
  ).run();
  db.close();
  assert.equal(inspect(file).version, 1);

  const store = await openSqliteStore(file);
  const run = await store.getRun('r1');
  assert.equal(run?.task, 'metatool/similar');
  assert.equal(run?.judge, null);
  // Runs made before v4 stored all their samples with the run: no count, nothing to add on resume.
  assert.equal(run?.sampleCount, undefined);
  assert.deepEqual(await store.reviews('r1'), []);
  // Runs made before v5 have no lease: one stored as running is shown stale, and a resume may take it.
  assert.equal(await store.runLease('r1'), undefined);
  await store.close();
  assert.equal(inspect(file).version, LATEST_SCHEMA_VERSION);
});

test('a version-2 store (whole prompts in its samples, an indexed call cache) upgrades and reads its samples, calls and cache as before', async () => {
  const file = join(dir, 'v2.db');
  const db = new Database(file);
  applyMigrations(db, file, MIGRATIONS.slice(0, 2));
  const prompt = 'Which tool? 1. tool name: A, tool description: d\n';
  db.prepare(
    `INSERT INTO runs VALUES ('r2', 'metatool/similar', '1', 'finished', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '["openai:m"]', '{}', 0, '{}', '{}', 'p', '0.1.0', '{}', NULL)`,
  ).run();
  db.prepare(`INSERT INTO samples (run_id, sample_id, idx, input, tools, target, metadata, hints) VALUES ('r2', 's1', 0, ?, NULL, '"A"', '{}', NULL)`).run(
    JSON.stringify([{ role: 'user', content: prompt }]),
  );
  db.prepare(
    `INSERT INTO calls (run_id, sample_id, model_id, role, attempt, cache_key, request, output, error, input_tokens, output_tokens, cost_usd, latency_ms, started_at, actor)
     VALUES ('r2', 's1', 'openai:m', 'test', 1, 'k', '{"messages":"$sample.input","settings":{}}', NULL, '{"kind":"http","message":"500"}', NULL, NULL, NULL, 3, '2026-01-01T00:00:00Z', NULL),
            ('r2', 's1', 'openai:m', 'test', 2, 'k', '{"messages":"$sample.input","settings":{}}', '{"text":"old"}', NULL, NULL, NULL, NULL, 3, '2026-01-01T00:00:00Z', NULL),
            ('r2', 's1', 'openai:m', 'test', 3, 'k', '{"messages":"$sample.input","settings":{}}', '{"text":"new"}', NULL, NULL, NULL, NULL, 3, '2026-01-01T00:00:00Z', NULL)`,
  ).run();
  db.close();

  const store = await openSqliteStore(file);
  const [sample] = await store.loadSamples('r2');
  assert.deepEqual(sample?.input, [{ role: 'user', content: prompt }]);
  const [call] = await store.calls('r2');
  assert.deepEqual(call?.request, { messages: [{ role: 'user', content: prompt }], settings: {} });
  // The call cache of the old file answers as before: the newest successful call of the key.
  assert.deepEqual(await store.lookupCache('k'), { text: 'new' });
  await store.close();
  assert.equal(inspect(file).version, LATEST_SCHEMA_VERSION);
});

test('a version-8 store (before repeats) upgrades: its results read as repeat 0 with no field, its runs record no repeats, and a result of another repeat of the same unit can be added', async () => {
  const file = join(dir, 'v8.db');
  const db = new Database(file);
  applyMigrations(db, file, MIGRATIONS.slice(0, 8));
  db.prepare(
    `INSERT INTO runs (id, task, task_version, status, created_at, updated_at, models, settings, seed, options, dataset_checksums, prompt_version, toolkit_version, engine)
     VALUES ('r8', 'cases', '1', 'finished', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '["openai:m"]', '{}', 0, '{}', '{}', 'p', '0.1.0', '{}')`,
  ).run();
  db.prepare(`INSERT INTO samples (run_id, sample_id, idx, input, tools, target, metadata, hints) VALUES ('r8', 's1', 0, '[{"role":"user","content":"q"}]', NULL, 'null', '{}', NULL)`).run();
  db.prepare(
    `INSERT INTO results (run_id, sample_id, model_id, status, output, score, error, cached, attempts, latency_ms, input_tokens, output_tokens, cost_usd, finished_at, transcript)
     VALUES ('r8', 's1', 'openai:m', 'done', '{"text":"a"}', '{"value":true}', NULL, 0, 1, 5, NULL, NULL, NULL, '2026-01-01T00:00:01Z', NULL)`,
  ).run();
  db.close();

  const store = await openSqliteStore(file);
  assert.equal(inspect(file).version, LATEST_SCHEMA_VERSION);
  const run = await store.getRun('r8');
  assert.equal(run !== undefined && 'repeats' in run, false);
  const [old] = await store.results('r8');
  assert.deepEqual([old?.sampleId, 'repeat' in (old ?? {}), old?.score], ['s1', false, { value: true }]);
  assert.equal((await store.unitStartState('r8', 's1', 'openai:m')).result, 'done');
  // The wider key: repeat 1 of the same (sample, model) is a unit of its own.
  const saved = await store.saveOutcome([], { ...(old as NonNullable<typeof old>), repeat: 1, score: { value: false } });
  assert.equal(saved, true);
  assert.deepEqual((await store.results('r8')).map((r) => [r.repeat ?? 0, r.score?.value]), [[0, true], [1, false]]);
  await store.close();
});

test("a version-10 store (before calls recorded their repeat) upgrades: its calls read as repeat 0 with no field, and a later repeat's calls are stored with theirs", async () => {
  const file = join(dir, 'v10.db');
  const db = new Database(file);
  applyMigrations(db, file, MIGRATIONS.slice(0, 10));
  db.prepare(
    `INSERT INTO runs (id, task, task_version, status, created_at, updated_at, models, settings, seed, options, dataset_checksums, prompt_version, toolkit_version, engine, repeats)
     VALUES ('r10', 'cases', '1', 'finished', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '["openai:m"]', '{}', 0, '{}', '{}', 'p', '0.1.0', '{}', 2)`,
  ).run();
  db.prepare(`INSERT INTO samples (run_id, sample_id, idx, input, tools, target, metadata, hints) VALUES ('r10', 's1', 0, '[{"role":"user","content":"q"}]', NULL, 'null', '{}', NULL)`).run();
  db.prepare(
    `INSERT INTO calls (run_id, sample_id, model_id, role, attempt, cache_key, request, output, error, input_tokens, output_tokens, cost_usd, latency_ms, started_at, actor, step)
     VALUES ('r10', 's1', 'openai:m', 'test', 1, 'k0', '{"settings":{"seed":0}}', '{"text":"a"}', NULL, NULL, NULL, NULL, 3, '2026-01-01T00:00:00Z', NULL, NULL),
            ('r10', 's1', 'openai:m', 'judge', 1, NULL, '{"settings":{}}', '{"text":"pass"}', NULL, NULL, NULL, NULL, 3, '2026-01-01T00:00:00Z', 'openai:j', 'verdict')`,
  ).run();
  db.close();

  const store = await openSqliteStore(file);
  assert.equal(inspect(file).version, LATEST_SCHEMA_VERSION);
  const old = await store.calls('r10');
  assert.deepEqual(old.map((c) => [c.role, 'repeat' in c]), [['test', false], ['judge', false]]);
  const [first] = old;
  assert.ok(first);
  await store.saveCalls([{ ...first, repeat: 1, cacheKey: 'k1', request: { settings: { seed: 1 } } }]);
  assert.deepEqual((await store.calls('r10')).map((c) => c.repeat ?? 0), [0, 0, 1]);
  await store.close();
  const raw = new Database(file, { readonly: true });
  assert.deepEqual(raw.prepare('SELECT repeat FROM calls ORDER BY id').pluck().all(), [0, 0, 1]);
  raw.close();
});
