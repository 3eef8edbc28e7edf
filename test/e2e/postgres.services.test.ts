import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { openStore } from '../../src/store/open-store.js';
import { ScratchSchemas } from '../../src/store/postgres/test-support/scratch-schemas.js';
import { LATEST_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { collect, runAssay, spawnAssay } from '../../src/testing/spawn-cli.js';
import { testDataDir } from '../../src/testing/test-data.js';

// The CLI on a PostgreSQL store (`npm run test:services`): runs, show, export, the call cache
// across processes, kill -9 and resume, and bad URLs. Each test's store is a schema of its own.
const schemas = new ScratchSchemas();
const env = { ASSAY_DATA_DIR: testDataDir() };
let server: FakeServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-pg-e2e-'));
  server = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), latencyMs: 10 });
});

after(async () => {
  await server.close();
  await schemas.dropAll();
  rmSync(dir, { recursive: true, force: true });
});

interface Summary {
  run: string;
  status: string;
  models: Record<string, { metrics: Record<string, unknown>; counts: { done: number; errors: number } }>;
}

test('run, runs, show and export on PostgreSQL give what the same run gives on SQLite', async () => {
  const { url } = await schemas.create();
  const args = ['run', 'metatool/similar', '-m', 'baseline:lexical', '-m', 'baseline:random', '--per-tool', '1', '--limit', '60', '--seed', '3', '--json'];
  const onPg = await runAssay([...args, '--db', url], env);
  assert.equal(onPg.code, 0, onPg.stderr);
  const onSqlite = await runAssay([...args, '--db', join(dir, 'same.db')], env);
  assert.equal(onSqlite.code, 0, onSqlite.stderr);
  const pgSummary = JSON.parse(onPg.stdout) as Summary;
  const sqliteSummary = JSON.parse(onSqlite.stdout) as Summary;
  assert.equal(pgSummary.status, 'finished');
  assert.deepEqual(pgSummary.models, sqliteSummary.models);
  assert.match(onPg.stderr, new RegExp(`run ${pgSummary.run}: .* \\(db postgres://`));

  const runs = await runAssay(['runs', '--db', url], env);
  assert.equal(runs.code, 0, runs.stderr);
  assert.match(runs.stdout, new RegExp(pgSummary.run));

  const shown = await runAssay(['show', pgSummary.run.slice(0, 15), '--json', '--db', url], env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.deepEqual((JSON.parse(shown.stdout) as Summary).models, pgSummary.models);

  const exportOf = async (db: string, id: string, format: string): Promise<string> => {
    const out = await runAssay(['export', id, '--format', format, '--db', db], env);
    assert.equal(out.code, 0, out.stderr);
    return out.stdout;
  };
  const csv = parse(await exportOf(url, pgSummary.run, 'csv'), { columns: true }) as Record<string, string>[];
  assert.equal(csv.length, 120, 'one row per sample and model');
  // Row for row, the export is the SQLite run's but for the run id.
  const jsonl = (text: string, id: string): string => text.replaceAll(id, '<run>');
  assert.equal(jsonl(await exportOf(url, pgSummary.run, 'jsonl'), pgSummary.run), jsonl(await exportOf(join(dir, 'same.db'), sqliteSummary.run, 'jsonl'), sqliteSummary.run));
});

test('the call cache is shared by processes on one PostgreSQL store: a second run calls nothing', async () => {
  const { url } = await schemas.create();
  const args = ['run', 'metatool/similar', '-m', 'openai:fake-model', '--base-url', server.url, '--per-tool', '1', '--limit', '30', '--seed', '4', '--json', '--db', url];
  const first = await runAssay(args, env);
  assert.equal(first.code, 0, first.stderr);
  const before = server.requests.length;
  const second = await runAssay(args, env);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(server.requests.length, before, 'every answer came from the cache');
  assert.deepEqual((JSON.parse(second.stdout) as Summary).models['openai:fake-model']?.metrics, (JSON.parse(first.stdout) as Summary).models['openai:fake-model']?.metrics);
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('kill -9 mid-run, then resume against PostgreSQL: no finished sample is called again', async () => {
  const SAMPLES = 600; // more than the first chunk stored with the run (256)
  const { url } = await schemas.create();
  const args = ['run', 'metatool/similar', '--model', 'openai:fake-model', '--base-url', server.url, '--per-tool', '4', '--limit', String(SAMPLES), '--seed', '5', '--concurrency', '4', '--no-cache', '--json', '--db', url];
  const requestsBefore = server.requests.length;
  const child = spawnAssay(args, { ...env, ASSAY_LEASE_TTL_MS: '1000' });
  const exited = collect(child);
  await waitFor(() => server.requests.length - requestsBefore >= 80, 60_000);
  child.kill('SIGKILL');
  assert.equal((await exited).signal, 'SIGKILL');
  const requestsAtKill = server.requests.length;

  const store = await openStore(url);
  const [run] = await store.listRuns();
  assert.ok(run, 'the run was recorded before the first call');
  assert.equal(run.status, 'running');
  assert.equal(run.sampleCount, SAMPLES);
  const finishedBefore = new Set((await store.results(run.id)).filter((r) => r.status === 'done').map((r) => r.sampleId));
  assert.ok(finishedBefore.size >= 40 && finishedBefore.size < SAMPLES, `finished before kill: ${finishedBefore.size}`);
  const storedBefore = await store.loadSamples(run.id);
  assert.ok(storedBefore.length < SAMPLES, `samples stored before kill: ${storedBefore.length}`);
  const promptOf = new Map(storedBefore.map((s) => [s.id, s.input[0]?.content ?? '']));
  // Refused while the dead process's lease is live (by the server's clock), then taken over.
  await waitFor(async () => (await store.runLease(run.id))?.live === false, 60_000);
  await store.close();

  const resumed = await runAssay(['resume', run.id.slice(0, 15), '--json', '--db', url], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  const summary = JSON.parse(resumed.stdout) as Summary;
  assert.equal(summary.status, 'finished');
  assert.equal(summary.models['openai:fake-model']?.counts.done, SAMPLES);

  // With --no-cache, the cache cannot hide a repeated call: none of the finished ones, each unfinished one once.
  const afterKeys = server.requests.slice(requestsAtKill).map((r) => r.key);
  const finishedKeys = new Set([...finishedBefore].map((id) => promptOf.get(id)));
  assert.equal(afterKeys.filter((k) => finishedKeys.has(k)).length, 0);
  assert.equal(afterKeys.length, SAMPLES - finishedBefore.size);
  assert.equal(new Set(afterKeys).size, afterKeys.length);

  const check = await openStore(url);
  try {
    assert.equal((await check.loadSamples(run.id)).length, SAMPLES, 'the resume stored the samples the killed run had not');
    assert.equal((await check.getRun(run.id))?.status, 'finished');
    assert.equal(await check.runLease(run.id), undefined, 'the lease is released');
  } finally {
    await check.close();
  }
});

test('a missing database and a schema from a newer assay: one line, exit 2, nothing recorded', async () => {
  const { url, schema } = await schemas.create();
  const run = ['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '3'];
  const noDb = new URL(url);
  noDb.pathname = '/assay_no_such_database';
  noDb.password = 's3cret';
  const missing = await runAssay([...run, '--db', noDb.toString()], env);
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /^assay: cannot open PostgreSQL store postgres:\/\/postgres:\*\*\*@.*: database "assay_no_such_database" does not exist\n$/);

  await (await openStore(url)).close();
  await schemas.query(`INSERT INTO ${schema}.schema_migrations (version, description) VALUES ($1, 'from the future')`, [LATEST_SCHEMA_VERSION + 1]);
  const newer = await runAssay([...run, '--db', url], env);
  assert.equal(newer.code, 2, newer.stderr);
  assert.match(newer.stderr, new RegExp(`^assay: PostgreSQL store .* has schema version ${LATEST_SCHEMA_VERSION + 1}; this assay understands up to ${LATEST_SCHEMA_VERSION} — upgrade assay\\n$`));
  assert.equal((await schemas.query(`SELECT count(*)::int AS n FROM ${schema}.runs`)).rows[0]?.n, 0);
});
