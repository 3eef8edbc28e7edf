import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startRun } from '../../runner/run.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/store.js';
import { writeSyntheticMetaTool } from '../../testing/synthetic-metatool.js';
import { buildRunReport } from '../run-report.js';
import { ROW_FLAGS } from '../sample-rows.js';
import { startViewServer, type ViewServer } from './view-server.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A GET (or another method) over real HTTP with the headers given, Host included (fetch cannot set it). */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const WRITES = ['createRun', 'addSamples', 'setRunStatus', 'acquireRunLease', 'renewRunLease', 'releaseRunLease', 'saveOutcome', 'saveCalls', 'updateScores', 'saveReviews'];

/** The store as the viewer gets it: any write throws, so a test passing through every endpoint shows it only reads. */
function readOnly(store: Store, writes: string[]): Store {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (typeof key === 'string' && WRITES.includes(key)) {
        return () => {
          writes.push(key);
          throw new Error(`the viewer wrote: ${key}`);
        };
      }
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

let dir: string;
let store: Store;
let runId: string;
const writes: string[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-view-server-'));
  store = await openSqliteStore(join(dir, 'runs.db'));
  const engine = { concurrency: 2, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false, failFast: false };
  // The viewer is what is tested, not the data: a small synthetic MetaTool set.
  const dataDir = writeSyntheticMetaTool(join(dir, 'data')).dir;
  runId = (await startRun({ task: 'metatool/awareness', models: ['baseline:lexical', 'baseline:random'], seed: 0, options: { limit: 6 }, dataDir, engine, allowModifiedData: true }, { store })).run;
});

after(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the viewer over real HTTP (loopback)', () => {
  let server: ViewServer;
  before(async () => {
    server = await startViewServer({ store: readOnly(store, writes), onError: (e) => assert.fail(String(e)) });
  });
  after(async () => server?.close());

  test('the run list page and its JSON: the report CSP as a header, nosniff, no token on loopback', async () => {
    assert.equal(server.token, undefined);
    assert.equal(server.url, `http://127.0.0.1:${server.port}/`);
    const page = await get(server.port, '/');
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(String(page.headers['content-security-policy']), /^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; img-src data:; connect-src 'self'; .*frame-ancestors 'none'$/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.match(page.body, /<script type="application\/json" id="assay-run-list">/);

    const runs = await get(server.port, '/api/runs');
    assert.equal(runs.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(runs.headers['x-content-type-options'], 'nosniff');
    const list = JSON.parse(runs.body) as { run: string; status: string; samples: number; progress: { model: string; done: number; errors: number }[] }[];
    assert.deepEqual(
      list.map((r) => [r.run, r.status, r.samples, r.progress]),
      [[runId, 'finished', 6, [{ model: 'baseline:lexical', done: 6, errors: 0 }, { model: 'baseline:random', done: 6, errors: 0 }]]],
    );
  });

  test('a run: the summaries, the index and each row’s details, as buildRunReport makes them, details read one row at a time', async () => {
    const full = await buildRunReport(store, runId, { details: { mode: 'all' } });
    const page = await get(server.port, `/report?runs=${runId}`);
    assert.equal(page.status, 200);
    assert.match(page.body, new RegExp(`"bundle":"/api/report\\?runs=${runId}"`));

    const bundle = JSON.parse((await get(server.port, `/api/report?runs=${runId}`)).body) as { runs: Record<string, unknown>[] };
    assert.equal(bundle.runs.length, 1);
    const served = bundle.runs[0] as Record<string, unknown>;
    assert.equal('index' in served || 'details' in served, false, 'summaries only');
    assert.deepEqual(served['summary'], full.summary);
    assert.deepEqual(served['charts'], full.charts);
    assert.deepEqual(served['tables'], full.tables);

    const samples = JSON.parse((await get(server.port, `/api/runs/${runId}/samples`)).body) as { index: typeof full.index; details: object };
    assert.deepEqual(samples.details, {});
    // The same index, but no row is "in the file": each is read on demand.
    assert.deepEqual(samples.index, { ...full.index, rows: { ...full.index.rows, flags: full.index.rows.flags.map((f) => f & ~ROW_FLAGS.detailed) } });
    for (const row of [0, 5, 11]) {
      const detail = await get(server.port, `/api/runs/${runId}/samples/${row}`);
      assert.equal(detail.status, 200);
      assert.deepEqual(JSON.parse(detail.body), full.details[String(row)], `row ${row}`);
    }
    assert.equal((await get(server.port, `/api/runs/${runId}/samples/12`)).status, 404, 'past the last row');

    const progress = JSON.parse((await get(server.port, `/api/progress?runs=${runId}`)).body) as { run: string; status: string }[];
    assert.deepEqual(progress.map((p) => [p.run, p.status]), [[runId, 'finished']]);
  });

  test('refused: unknown runs, prefixes, bad ids, other methods, other Host names', async () => {
    assert.equal((await get(server.port, '/report?runs=20990101-000000-zzzz')).status, 404);
    assert.equal((await get(server.port, `/api/report?runs=${runId.slice(0, 8)}`)).status, 404, 'a prefix is not an id here');
    assert.equal((await get(server.port, '/api/runs/%3Cscript%3E/samples')).status, 400);
    const post = await get(server.port, '/api/runs', {}, 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers['allow'], 'GET, HEAD');
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`]) {
      const answer = await get(server.port, '/api/runs', { host });
      assert.equal(answer.status, 403, host);
      assert.ok(!answer.body.includes(runId));
    }
    assert.equal((await get(server.port, '/api/runs', { host: `localhost:${server.port}` })).status, 200);
    assert.deepEqual(writes, [], 'no endpoint wrote to the store');
  });
});

describe('the viewer bound to every interface', () => {
  let server: ViewServer;
  before(async () => {
    server = await startViewServer({ store: readOnly(store, writes), host: '0.0.0.0' });
  });
  after(async () => server?.close());

  test('every request needs the token: the printed URL sets a cookie and drops it from the address; without it 403', async () => {
    const token = server.token as string;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(server.url, `http://127.0.0.1:${server.port}/?token=${token}`);
    for (const path of ['/', '/api/runs', `/api/report?runs=${runId}`, `/api/runs/${runId}/samples/0`]) {
      const refused = await get(server.port, path);
      assert.equal(refused.status, 403, path);
      assert.ok(!refused.body.includes(runId), path);
      assert.equal((await get(server.port, path, { cookie: 'assay_view_token=wrong' })).status, 403, path);
    }
    const first = await get(server.port, `/?token=${token}`);
    assert.equal(first.status, 303);
    assert.equal(first.headers['location'], '/');
    const cookie = String(first.headers['set-cookie']);
    assert.match(cookie, /^assay_view_token=[^;]+; HttpOnly; SameSite=Strict; Path=\/$/);
    const jar = cookie.split(';')[0] as string;
    assert.equal((await get(server.port, '/', { cookie: jar })).status, 200);
    assert.equal((await get(server.port, `/api/runs/${runId}/samples/0`, { cookie: jar })).status, 200);
    assert.equal((await get(server.port, '/api/runs', { authorization: `Bearer ${token}` })).status, 200);
    // The token does not stand in for the Host check.
    assert.equal((await get(server.port, '/api/runs', { cookie: jar, host: `rebind.example:${server.port}` })).status, 403);
    assert.deepEqual(writes, []);
  });
});
