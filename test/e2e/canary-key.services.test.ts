import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { QUEUE_PREFIX } from '../../src/queue/queue-location.js';
import { ScratchSchemas, TEST_POSTGRES_URL } from '../../src/store/postgres/test-support/scratch-schemas.js';
import { CANARY_KEY } from '../../src/testing/canary.js';
import { CANARY_QUERY_TOKEN, canaryBaseUrl, canaryRunArgs, startCanaryServer } from '../../src/testing/canary-server.js';
import { assertNoCanary, readRunEverywhere } from '../../src/testing/canary-sweep.js';
import type { FakeServer } from '../../src/testing/fake-openai-server.js';
import { collect, runAssay, spawnAssay } from '../../src/testing/spawn-cli.js';
import { testDataDir } from '../../src/testing/test-data.js';
import { ScratchQueues, TEST_REDIS_URL } from '../../src/queue/test-support/scratch-queues.js';

// The canary sweep of canary-key.test.ts on the shared stores (`npm run test:services`): a run
// stored in PostgreSQL, and one made through the queue by a worker, with Redis read too.
const REDIS = TEST_REDIS_URL;
const queues = new ScratchQueues(REDIS);
const schemas = new ScratchSchemas();
const children: ChildProcess[] = [];
let server: FakeServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-canary-services-'));
  server = await startCanaryServer();
});

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await queues.dropAll();
  await server.close();
  await schemas.dropAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Every row of every table of `schema` as text, and pg_dump's dump of it (schema and data) where pg_dump can talk to the server. */
async function schemaText(schema: string): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  const tables = await schemas.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
  assert.ok(tables.rows.length > 3);
  for (const { table_name: table } of tables.rows as { table_name: string }[]) {
    const rows = await schemas.query(`SELECT t::text AS row FROM ${schema}."${table}" t`);
    texts[`table ${table}`] = (rows.rows as { row: string }[]).map((r) => r.row).join('\n');
  }
  try {
    texts['pg_dump'] = execFileSync('pg_dump', ['--schema', schema, TEST_POSTGRES_URL], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch {
    // A pg_dump older than the server refuses it: the tables read above are the same data.
  }
  return texts;
}

test('PostgreSQL: the echoed key and the base URL\'s credentials are in no table, dump, export, report or terminal', { timeout: 300_000 }, async () => {
  const { schema, url } = await schemas.create();
  const env = { OPENAI_API_KEY: CANARY_KEY, ASSAY_DATA_DIR: testDataDir() };
  const run = await runAssay(canaryRunArgs(server, url), env);
  assert.equal(run.code, 3, run.stderr);
  const runId = (JSON.parse(run.stdout) as { run: string }).run;
  const texts: Record<string, string> = { 'run stdout': run.stdout, 'run stderr': run.stderr, ...(await readRunEverywhere(runId, url, dir, env)), ...(await schemaText(schema)) };
  for (const [where, text] of Object.entries(texts)) assertNoCanary(where, text);
  assert.match(texts['export jsonl'] ?? '', /bad request for key \[REDACTED\] and \[REDACTED\]/);
});

/** Every key of Redis under the queue's name, with its value as text (whatever its type). */
async function redisText(redis: Redis, queue: string): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${QUEUE_PREFIX}:${queue}:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'string' ? await redis.get(key)
        : type === 'hash' ? JSON.stringify(await redis.hgetall(key))
        : type === 'list' ? (await redis.lrange(key, 0, -1)).join('\n')
        : type === 'set' ? (await redis.smembers(key)).join('\n')
        : type === 'zset' ? (await redis.zrange(key, 0, -1)).join('\n')
        : type === 'stream' ? JSON.stringify(await redis.xrange(key, '-', '+'))
        : '';
      texts[`redis ${key}`] = value ?? '';
    }
  } while (cursor !== '0');
  return texts;
}

test('the queue: a worker given the key and the full base URL by its environment calls with them; Redis, the store and the terminals never show them', { timeout: 300_000 }, async () => {
  const { schema, url } = await schemas.create();
  const queue = queues.name('canary');
  const submitterEnv = { ASSAY_DATA_DIR: testDataDir() };
  // A queued run names no endpoint (--base-url is refused with --queue): the worker calls its own
  // OPENAI_BASE_URL, credentials and all.
  const workerEnv = { ...submitterEnv, OPENAI_API_KEY: CANARY_KEY, OPENAI_BASE_URL: canaryBaseUrl(server) };
  const redis = new Redis(REDIS, { lazyConnect: false, maxRetriesPerRequest: 3 });
  try {
    const before = server.requests.length;
    const inProcessArgs = canaryRunArgs(server, url);
    const at = inProcessArgs.indexOf('--base-url');
    const submitter = spawnAssay([...inProcessArgs.slice(0, at), ...inProcessArgs.slice(at + 2), '--queue', REDIS, '--queue-name', queue], submitterEnv);
    children.push(submitter);
    const submitted = collect(submitter);
    const worker = spawnAssay(['worker', '--queue', REDIS, '--queue-name', queue, '--db', url], workerEnv);
    children.push(worker);
    const workerOut = collect(worker);
    // Read while the run is going too: finished jobs are removed.
    const during = await redisText(redis, queue);
    const out = await submitted;
    // A worker may take a unit that ended in error again (the queue's job attempts): exit 0 or 3.
    assert.ok(out.code === 0 || out.code === 3, out.stderr);
    assert.ok(server.requests.slice(before).some((r) => r.status === 400), 'the server echoed the key in an error');
    const runId = (JSON.parse(out.stdout) as { run: string }).run;
    const afterRun = await redisText(redis, queue);
    worker.kill('SIGTERM');
    const workerResult = await workerOut;
    assert.ok(server.requests.length - before >= 12);
    // The worker called with the query's real token, taken from its OPENAI_BASE_URL (the run records no URL).
    assert.ok(server.requests.slice(before).every((r) => r.path.includes(`api_key=${encodeURIComponent(CANARY_QUERY_TOKEN)}`)));
    assert.ok(Object.keys(during).length + Object.keys(afterRun).length > 0, 'the queue left keys in Redis');
    const texts: Record<string, string> = {
      'submitter stdout': out.stdout,
      'submitter stderr': out.stderr,
      'worker output': `${workerResult.stdout}\n${workerResult.stderr}`,
      ...Object.fromEntries(Object.entries(during).map(([k, v]) => [`${k} (during)`, v])),
      ...afterRun,
      ...(await readRunEverywhere(runId, url, dir, submitterEnv)),
      ...(await schemaText(schema)),
    };
    for (const [where, text] of Object.entries(texts)) assertNoCanary(where, text);
    assert.match(texts['export jsonl'] ?? '', /\[REDACTED\]/);
  } finally {
    redis.disconnect();
  }
});
