import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import { openStore } from '../open-store.js';
import { makeCall, makeResult, makeRun, okOutput, samples, storeContract } from '../test-support/store-contract.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';
import { openPostgresStore } from './postgres-store.js';
import { applyMigrations } from './migrate.js';
import pg from 'pg';
import { ScratchSchemas, TEST_POSTGRES_URL, withSearchPath } from './test-support/scratch-schemas.js';

// Runs against a real PostgreSQL server (`npm run test:services`): each store in a schema of its own.
const schemas = new ScratchSchemas();
after(() => schemas.dropAll());

storeContract({
  name: 'PostgreSQL',
  fresh: async () => {
    const { url } = await schemas.create();
    return { open: () => openPostgresStore(url) };
  },
});

/** Asserts `promise` fails with one line that names the store with its password hidden. */
async function refusedInOneLine(promise: Promise<unknown>, pattern: RegExp): Promise<string> {
  let message = '';
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof InputError, String(error));
    message = error.message;
    return true;
  });
  assert.match(message, pattern);
  assert.doesNotMatch(message, /\n/);
  assert.doesNotMatch(message, /s3cret/);
  return message;
}

describe('PostgreSQL store', () => {
  test('a cached call is seen by another connection as soon as it is committed', async () => {
    const { url } = await schemas.create();
    const [writer, reader] = [await openPostgresStore(url), await openPostgresStore(url)];
    try {
      await writer.createRun(makeRun(), samples);
      assert.equal(await reader.lookupCache('fresh-key'), undefined);
      await writer.saveOutcome([makeCall({ cacheKey: 'fresh-key' })], makeResult());
      assert.deepEqual(await reader.lookupCache('fresh-key'), okOutput, 'no merge, no close: the commit is enough');
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });

  test('a new schema is migrated once, in schema_migrations; stores opening it together both work', async () => {
    const { url, schema } = await schemas.create();
    const opened = await Promise.all([openStore(url), openStore(url), openStore(url)]);
    await Promise.all(opened.map((s) => s.close()));
    const { rows } = await schemas.query(`SELECT version, description FROM ${schema}.schema_migrations ORDER BY version`);
    assert.deepEqual(rows, MIGRATIONS.map((m) => ({ version: m.version, description: m.description })));
    const again = await openStore(url);
    await again.createRun(makeRun(), samples);
    await again.close();
    assert.equal((await schemas.query(`SELECT count(*)::int AS n FROM ${schema}.schema_migrations`)).rows[0]?.n, LATEST_SCHEMA_VERSION);
  });

  test('a version-1 schema (before repeats) upgrades to version 2: its results read as repeat 0, and another repeat of the same unit can be added', async () => {
    const { url, schema } = await schemas.create();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await applyMigrations(client, 'test', MIGRATIONS.slice(0, 1));
    } finally {
      await client.end();
    }
    const run = makeRun();
    await schemas.query(
      `INSERT INTO ${schema}.runs (id, task, task_version, status, created_at, updated_at, models, settings, seed, options, dataset_checksums, prompt_version, toolkit_version, engine)
       VALUES ($1, 'cases', '1', 'finished', now(), now(), ARRAY['openai:gpt-4o-mini'], '{}', 0, '{}', '{}', 'p', '0.1.0', '{}')`,
      [run.id],
    );
    await schemas.query(`INSERT INTO ${schema}.samples (run_id, sample_id, idx, input, tools, target, metadata, hints) VALUES ($1, 'q-beta', 0, '[]', NULL, 'null', '{}', NULL)`, [run.id]);
    await schemas.query(
      `INSERT INTO ${schema}.results (run_id, sample_id, model_id, status, output, score, error, cached, attempts, latency_ms, finished_at)
       VALUES ($1, 'q-beta', 'openai:gpt-4o-mini', 'done', '{"text":"a"}', '{"value":true}', NULL, false, 1, 5, now())`,
      [run.id],
    );
    const store = await openPostgresStore(url);
    try {
      assert.equal((await schemas.query(`SELECT max(version)::int AS v FROM ${schema}.schema_migrations`)).rows[0]?.v, LATEST_SCHEMA_VERSION);
      const [old] = await store.results(run.id);
      assert.deepEqual([old?.sampleId, 'repeat' in (old ?? {}), old?.score], ['q-beta', false, { value: true }]);
      assert.equal('repeats' in ((await store.getRun(run.id)) ?? {}), false);
      assert.equal(await store.saveOutcome([], makeResult({ repeat: 1, score: { value: false } })), true);
      assert.deepEqual((await store.results(run.id)).map((r) => [r.repeat ?? 0, r.score?.value]), [[0, true], [1, false]]);
    } finally {
      await store.close();
    }
  });

  test("a version-3 schema (before calls recorded their repeat) upgrades to version 4: its calls read as repeat 0 with no field, and a later repeat's calls are stored with theirs", async () => {
    const { url, schema } = await schemas.create();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await applyMigrations(client, 'test', MIGRATIONS.slice(0, 3));
    } finally {
      await client.end();
    }
    const run = makeRun();
    await schemas.query(
      `INSERT INTO ${schema}.runs (id, task, task_version, status, created_at, updated_at, models, settings, seed, options, dataset_checksums, prompt_version, toolkit_version, engine, repeats)
       VALUES ($1, 'cases', '1', 'finished', now(), now(), ARRAY['openai:gpt-4o-mini'], '{}', 0, '{}', '{}', 'p', '0.1.0', '{}', 2)`,
      [run.id],
    );
    await schemas.query(`INSERT INTO ${schema}.samples (run_id, sample_id, idx, input, tools, target, metadata, hints) VALUES ($1, 'q-beta', 0, '[]', NULL, 'null', '{}', NULL)`, [run.id]);
    await schemas.query(
      `INSERT INTO ${schema}.calls (run_id, sample_id, model_id, role, actor, step, attempt, cache_key, request, messages_from_sample, output, error, latency_ms, started_at)
       VALUES ($1, 'q-beta', 'openai:gpt-4o-mini', 'test', NULL, NULL, 1, 'k0', '{"settings":{"seed":0}}', false, '{"text":"a"}', NULL, 3, now()),
              ($1, 'q-beta', 'openai:gpt-4o-mini', 'judge', 'openai:judge', 'verdict', 1, NULL, '{"settings":{}}', false, '{"text":"pass"}', NULL, 3, now())`,
      [run.id],
    );
    const store = await openPostgresStore(url);
    try {
      assert.equal((await schemas.query(`SELECT max(version)::int AS v FROM ${schema}.schema_migrations`)).rows[0]?.v, LATEST_SCHEMA_VERSION);
      const old = await store.calls(run.id);
      assert.deepEqual(old.map((c) => [c.role, 'repeat' in c]), [['test', false], ['judge', false]]);
      const [first] = old;
      assert.ok(first);
      await store.saveCalls([{ ...first, repeat: 1, cacheKey: 'k1', request: { settings: { seed: 1 } } }]);
      assert.deepEqual((await store.calls(run.id)).map((c) => c.repeat ?? 0), [0, 0, 1]);
      assert.deepEqual((await schemas.query(`SELECT repeat FROM ${schema}.calls ORDER BY id`)).rows, [{ repeat: 0 }, { repeat: 0 }, { repeat: 1 }]);
    } finally {
      await store.close();
    }
  });

  test('a schema written by a newer assay is refused in one line, and nothing is written to it', async () => {
    const { url, schema } = await schemas.create();
    await (await openStore(url)).close();
    await schemas.query(`INSERT INTO ${schema}.schema_migrations (version, description) VALUES ($1, 'from the future')`, [LATEST_SCHEMA_VERSION + 1]);
    const secretUrl = url.replace('postgres@', 'postgres:s3cret@');
    await refusedInOneLine(openStore(secretUrl), new RegExp(`has schema version ${LATEST_SCHEMA_VERSION + 1}; this assay understands up to ${LATEST_SCHEMA_VERSION} — upgrade assay`));
    assert.equal((await schemas.query(`SELECT count(*)::int AS n FROM ${schema}.runs`)).rows[0]?.n, 0);
  });

  test('a schema holding another program’s tables of the same names is refused, untouched', async () => {
    const { url, schema } = await schemas.create();
    await schemas.query(`CREATE TABLE ${schema}.runs (id serial PRIMARY KEY, distance_km real)`);
    await refusedInOneLine(openStore(url), /already has tables named runs that are not an assay store's/);
    const tables = await schemas.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
    assert.deepEqual(tables.rows, [{ table_name: 'runs' }], 'no table of ours was created beside it');
    // A web framework's schema_migrations is not ours either.
    const other = await schemas.create();
    await schemas.query(`CREATE TABLE ${other.schema}.schema_migrations (version varchar PRIMARY KEY)`);
    await refusedInOneLine(openStore(other.url), /schema_migrations table is not assay's/);
  });

  test('an unreachable server, a wrong database, a wrong user, a missing schema: InputError naming the URL, password hidden', async () => {
    const base = new URL(TEST_POSTGRES_URL);
    const variant = (change: (u: URL) => void): string => {
      const u = new URL(base);
      u.password = 's3cret';
      change(u);
      return u.toString();
    };
    const refused = await refusedInOneLine(openStore(variant((u) => (u.port = '1'))), /^cannot open PostgreSQL store postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test: .*ECONNREFUSED/);
    assert.match(refused, /is PostgreSQL running there\?/);
    await refusedInOneLine(openStore(variant((u) => (u.pathname = '/assay_no_such_db'))), /database "assay_no_such_db" does not exist/);
    await refusedInOneLine(openStore(variant((u) => (u.username = 'assay_no_such_role'))), /role "assay_no_such_role" does not exist/);
    await refusedInOneLine(openStore(withSearchPath(variant(() => undefined), 't_never_made')), /no schema to create assay's tables in/);
    await refusedInOneLine(openStore(variant((u) => (u.hostname = 'assay-no-such-host.invalid'))), /assay-no-such-host\.invalid.*(ENOTFOUND|EAI_AGAIN)/);
  });

  test('close ends the pool (twice is harmless); the store is not usable after', async () => {
    const { url } = await schemas.create();
    const store = await openPostgresStore(url);
    await store.createRun(makeRun(), samples);
    await Promise.all([store.lookupCache('a'), store.lookupCache('b'), store.listRuns()]);
    await store.close();
    await store.close();
    await assert.rejects(store.listRuns());
  });
});
