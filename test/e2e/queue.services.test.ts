import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { openStore } from '../../src/store/open-store.js';
import { ScratchSchemas } from '../../src/store/postgres/test-support/scratch-schemas.js';
import type { Store } from '../../src/store/store.js';
import { queueOf } from '../../src/store/run-events.js';
import { faultPlan, startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { collect, runAssay, spawnAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { testDataDir } from '../../src/testing/test-data.js';
import { Queue } from 'bullmq';
import { QUEUE_PREFIX } from '../../src/queue/queue-location.js';
import { unitJobId } from '../../src/queue/unit.js';
import { worstExcess } from '../../src/testing/bucket-check.js';
import { startTcpProxy } from '../../src/testing/tcp-proxy.js';
import { ScratchQueues, TEST_REDIS_URL } from '../../src/queue/test-support/scratch-queues.js';

// The queue path (`npm run test:services`): `assay run --queue` and `assay worker` processes on the
// machine's Redis and PostgreSQL. Each test has its own schema and queue name, so parallel runs of
// other checkouts on this machine do not meet ours.
const REDIS = TEST_REDIS_URL;
const queues = new ScratchQueues(REDIS);
const schemas = new ScratchSchemas();
// Short locks so a killed worker's units move soon; long enough that a loaded machine rarely misses a renewal.
const env = { ASSAY_DATA_DIR: testDataDir(), ASSAY_QUEUE_LOCK_MS: '4000' };
const children: ChildProcess[] = [];
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-queue-e2e-'));
});

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await queues.dropAll();
  await schemas.dropAll();
  rmSync(dir, { recursive: true, force: true });
});

const queueName = (what: string): string => queues.name(what);

/** A worker process on `queue`; `environment` in place of the tests' (a worker's own keys). */
function startWorker(url: string, queue: string, extra: readonly string[] = [], environment: NodeJS.ProcessEnv = env): { child: ChildProcess; exited: Promise<CliResult> } {
  const child = spawnAssay(['worker', '--queue', REDIS, '--queue-name', queue, '--db', url, ...extra], environment);
  children.push(child);
  return { child, exited: collect(child) };
}

/** Waits for `check` to hold, polling; fails after `timeoutMs` (generous: a loaded 2-core machine). */
async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

interface Summary {
  run: string;
  status: string;
  models: Record<string, { metrics: Record<string, unknown>; counts: { done: number; errors: number } }>;
}

const SAMPLES = 2000;
const MODEL = 'openai:fake-model';
/** 429s (with a retry hint) and hangs on first attempts; the middleware's retries and timeout get past both. */
const faulty = (): Promise<FakeServer> =>
  startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), latencyMs: 5, faults: faultPlan({ rate429: 0.08, rateHang: 0.01, retryAfterMs: 30, seed: 'queue-e2e' }) });
// No --base-url on a queued run: the workers are pointed at the server (their own --base-url).
const runArgs = (): string[] => ['run', 'metatool/similar', '-m', MODEL, '--per-tool', '12', '--limit', String(SAMPLES), '--seed', '11', '--timeout', '4000', '--max-retries', '6', '--json'];

test('3 workers, one killed with -9 mid-run and another started: every unit recorded once, no finished sample called twice, the metrics of a single-process run', { timeout: 900_000 }, async (t) => {
  const { url } = await schemas.create();
  const queue = queueName('fleet');
  const server = await faulty();
  let store: Store | undefined;
  try {
    const submitter = spawnAssay([...runArgs(), '--queue', REDIS, '--queue-name', queue, '--db', url], env);
    children.push(submitter);
    const submitted = collect(submitter);
    const toServer = ['--base-url', server.url];
    const workers = [startWorker(url, queue, toServer), startWorker(url, queue, toServer), startWorker(url, queue, toServer)];
    store = await openStore(url);
    const opened = store;
    let runId = '';
    await waitFor('the run to be recorded', async () => {
      runId = (await opened.listRuns())[0]?.id ?? '';
      return runId !== '';
    });
    await waitFor('a quarter of the results', async () => (await opened.finishedSampleIds(runId, MODEL)).size >= SAMPLES / 4);
    const victim = workers[0] as (typeof workers)[number];
    victim.child.kill('SIGKILL');
    const killed = await victim.exited;
    assert.equal(killed.signal, 'SIGKILL');
    const fourth = startWorker(url, queue, toServer);

    const out = await submitted;
    assert.equal(out.code, 0, out.stderr);
    const summary = JSON.parse(out.stdout) as Summary;
    assert.equal(summary.run, runId);
    assert.equal(summary.status, 'finished');
    assert.deepEqual(summary.models[MODEL]?.counts.done, SAMPLES);
    assert.equal(summary.models[MODEL]?.counts.errors, 0);
    assert.equal((await store.getRun(runId))?.status, 'finished');

    // Every unit exactly one result, and exactly one successful call stored per sample (no redelivery recorded twice).
    const results = await store.results(runId, undefined, { outputs: false });
    assert.equal(results.length, SAMPLES);
    assert.equal(new Set(results.map((r) => r.sampleId)).size, SAMPLES);
    const samples = await store.loadSamples(runId);
    const calls = await store.calls(runId);
    const answeredStored = new Map<string, number>();
    for (const call of calls) if (call.output !== null) answeredStored.set(call.sampleId, (answeredStored.get(call.sampleId) ?? 0) + 1);
    for (const sample of samples) assert.equal(answeredStored.get(sample.id), 1, `sample ${sample.id}: stored answers`);

    for (const w of [...workers.slice(1), fourth]) w.child.kill('SIGTERM');
    const logs = await Promise.all(workers.map((w) => w.exited).concat(fourth.exited));
    for (const log of logs.slice(1)) assert.equal(log.code, 0, log.stderr);
    // Units whose job stalled: the killed worker's, and any whose live worker was late to renew its lock on a loaded machine.
    const stalled = new Set(logs.flatMap((log) => [...log.stderr.matchAll(/unit (u[0-9a-f]{64}) stalled/g)].map((m) => m[1])));

    // The server's ledger: a sample is answered more than once only when its unit stalled — its
    // worker lost the lock before storing the result (kill -9) and another took it; a unit that
    // went to one worker is called once. Samples with the same prompt share a key, so a key is
    // checked against its samples.
    const lastUser = (s: (typeof samples)[number]): string => {
      const content = [...s.input].reverse().find((m) => m.role === 'user')?.content;
      return typeof content === 'string' ? content : JSON.stringify(content);
    };
    const samplesByKey = new Map<string, string[]>();
    for (const s of samples) samplesByKey.set(lastUser(s), [...(samplesByKey.get(lastUser(s)) ?? []), s.id]);
    const answered = new Map<string, number>();
    for (const r of server.requests) if (r.outcome === 'answered') answered.set(r.key, (answered.get(r.key) ?? 0) + 1);
    let calledAgain = 0;
    for (const [key, count] of answered) {
      const ids = samplesByKey.get(key) ?? [];
      if (count <= ids.length) continue;
      calledAgain += count - ids.length;
      assert.ok(ids.some((id) => stalled.has(unitJobId({ runId, sampleId: id, modelId: MODEL, repeat: 0 }))), `a sample whose unit never stalled was called again: ${key.slice(0, 60)}…`);
    }
    assert.ok(stalled.size > 0, 'the killed worker\'s units stalled and moved');
    const outcomes = (o: string): number => server.requests.filter((r) => r.outcome === o).length;
    const status429 = server.requests.filter((r) => r.status === 429).length;
    assert.ok(status429 > 0 && outcomes('hang') > 0, 'the faults happened');
    t.diagnostic(`requests ${server.requests.length}: answered ${outcomes('answered')}, 429 ${status429}, hangs ${outcomes('hang')}; units stalled ${stalled.size}, samples answered again ${calledAgain}; results when killed ≥ ${SAMPLES / 4}`);

    // The same run in one process, against a server with the same faults: the same metrics.
    const alone = await faulty();
    try {
      const single = await runAssay([...runArgs(), '--base-url', alone.url, '--db', join(dir, 'single.db')], env);
      assert.equal(single.code, 0, single.stderr);
      assert.deepEqual(summary.models, (JSON.parse(single.stdout) as Summary).models);
    } finally {
      await alone.close();
    }
  } finally {
    await store?.close();
    await server.close();
  }
});

test('--detach returns the run id at once; a worker finishes the run and assay show reads it from another process', { timeout: 300_000 }, async () => {
  const { url } = await schemas.create();
  const queue = queueName('detach');
  const args = ['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '40', '--seed', '3', '--json'];
  const detached = await runAssay([...args, '--queue', REDIS, '--queue-name', queue, '--db', url, '--detach'], env);
  assert.equal(detached.code, 0, detached.stderr);
  const { run, units } = JSON.parse(detached.stdout) as { run: string; units: number };
  assert.equal(units, 40);
  assert.match(detached.stderr, new RegExp(`assay show ${run} --db postgres://`));
  // Queued, no worker yet: running (not stale), nothing done.
  const before = await runAssay(['show', run, '--json', '--db', url], env);
  assert.equal(before.code, 0, before.stderr);
  assert.equal((JSON.parse(before.stdout) as Summary).models['baseline:lexical']?.counts.done, 0);
  const listed = await runAssay(['runs', '--db', url], env);
  assert.match(listed.stdout, new RegExp(`${run}.*running`));

  const worker = startWorker(url, queue, ['--concurrency', '4']);
  let shown: Summary | undefined;
  await waitFor('the run to finish', async () => {
    const out = await runAssay(['show', run, '--json', '--db', url], env);
    shown = JSON.parse(out.stdout) as Summary;
    return shown.status === 'finished';
  });
  worker.child.kill('SIGTERM');
  assert.equal((await worker.exited).code, 0);
  const inProcess = await runAssay([...args, '--db', join(dir, 'detach.db')], env);
  assert.deepEqual(shown?.models, (JSON.parse(inProcess.stdout) as Summary).models);
});

test('a worker closes a run’s session once none of its units has come for the idle time: run after run, each is built once and closed once', { timeout: 300_000 }, async () => {
  const { url } = await schemas.create();
  const queue = queueName('idle');
  const worker = startWorker(url, queue, ['--concurrency', '4'], { ...env, ASSAY_WORKER_IDLE_MS: '200' });
  let told = '';
  worker.child.stderr?.on('data', (chunk: Buffer) => (told += chunk.toString()));
  const runs: string[] = [];
  for (const seed of ['3', '4']) {
    const args = ['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '30', '--seed', seed, '--json', '--queue', REDIS, '--queue-name', queue, '--db', url, '--detach'];
    const detached = await runAssay(args, env);
    assert.equal(detached.code, 0, detached.stderr);
    const { run } = JSON.parse(detached.stdout) as { run: string };
    runs.push(run);
    await waitFor(`run ${run}'s session to be closed`, async () => told.includes(`run ${run}: no unit of it for 0.2 s, its session closed`));
    const shown = JSON.parse((await runAssay(['show', run, '--json', '--db', url], env)).stdout) as Summary;
    assert.equal(shown.status, 'finished');
  }
  worker.child.kill('SIGTERM');
  assert.equal((await worker.exited).code, 0);
  for (const run of runs) {
    const count = (text: string): number => told.split(text).length - 1;
    assert.equal(count(`run ${run}: metatool/similar on baseline:lexical, 30 samples`), 1, told);
    assert.equal(count(`run ${run}: no unit of it for 0.2 s`), 1, told);
  }
});

test('--repeats 3 on the queue: a unit per sample, model and repeat, each called once with its seed; the results and metrics of the same run in one process', { timeout: 300_000 }, async () => {
  const { url } = await schemas.create();
  const queue = queueName('repeats');
  const server = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }) });
  try {
    const args = ['run', 'metatool/similar', '-m', MODEL, '--per-tool', '1', '--limit', '10', '--seed', '5', '--repeats', '3', '--json'];
    const detached = await runAssay([...args, '--queue', REDIS, '--queue-name', queue, '--db', url, '--detach'], env);
    assert.equal(detached.code, 0, detached.stderr);
    const { run, units } = JSON.parse(detached.stdout) as { run: string; units: number };
    // 10 samples × 1 model × 3 repeats.
    assert.equal(units, 30);
    const worker = startWorker(url, queue, ['--concurrency', '4', '--base-url', server.url]);
    let shown: Summary | undefined;
    await waitFor('the run to finish', async () => {
      const out = await runAssay(['show', run, '--json', '--db', url], env);
      shown = JSON.parse(out.stdout) as Summary;
      return shown.status === 'finished';
    });
    worker.child.kill('SIGTERM');
    assert.equal((await worker.exited).code, 0);
    // Each (prompt, seed 5 | 6 | 7) asked exactly once.
    const asked = server.requests.map((r) => r.body as { seed?: number; messages: unknown[] }).map((b) => `${JSON.stringify(b.messages)}#${b.seed}`);
    assert.equal(asked.length, 30);
    assert.equal(new Set(asked).size, 30);
    assert.deepEqual([...new Set(server.requests.map((r) => (r.body as { seed?: number }).seed))].sort(), [5, 6, 7]);
    assert.equal(shown?.models[MODEL]?.counts.done, 30);
    const inProcess = await runAssay([...args, '--base-url', server.url, '--db', join(dir, 'repeats.db'), '--no-cache'], env);
    assert.equal(inProcess.code, 0, inProcess.stderr);
    assert.deepEqual(shown?.models[MODEL]?.metrics, (JSON.parse(inProcess.stdout) as Summary).models[MODEL]?.metrics);
  } finally {
    await server.close();
  }
});

test('bad --queue and --db: one line, exit 2, nothing recorded', { timeout: 120_000 }, async () => {
  const { url } = await schemas.create();
  const args = ['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '5'];
  const cases: [string[], RegExp][] = [
    [['--queue', 'redis://127.0.0.1:1', '--db', url], /cannot reach Redis/],
    [['--queue', 'http://127.0.0.1:6379', '--db', url], /expected a redis:\/\/ or rediss:\/\/ URL, got http:/],
    [['--queue', REDIS, '--db', join(dir, 'local.db')], /needs a store every worker reaches/],
    [['--queue', REDIS, '--db', 'postgres://postgres@127.0.0.1:1/test'], /postgres/i],
    [['--queue', REDIS, '--queue-name', 'no spaces', '--db', url], /--queue-name/],
    [['--detach', '--db', url], /go with --queue/],
    // A worker sends its own key to the endpoint it calls: a run names none (issue 23).
    [['--queue', REDIS, '--base-url', 'http://127.0.0.1:9/v1', '--db', url], /^assay: --base-url does not go with --queue: workers call only their own endpoint, .*assay worker --base-url <url>, or OPENAI_BASE_URL in the worker's environment.*assay\.yaml/],
  ];
  for (const [extra, message] of cases) {
    const out = await runAssay([...args, ...extra], env);
    assert.equal(out.code, 2, `${extra.join(' ')}: ${out.stderr}`);
    assert.match(out.stderr, message);
    assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
  }
  const store = await openStore(url);
  try {
    assert.deepEqual(await store.listRuns(), []);
  } finally {
    await store.close();
  }
  const worker = await runAssay(['worker', '--queue', 'redis://127.0.0.1:1', '--db', url], env);
  assert.equal(worker.code, 2, worker.stderr);
  assert.match(worker.stderr, /cannot reach Redis/);
  const onSqlite = await runAssay(['worker', '--queue', REDIS, '--db', join(dir, 'w.db')], env);
  assert.equal(onSqlite.code, 2, onSqlite.stderr);
  const badEndpoint = await runAssay(['worker', '--queue', REDIS, '--base-url', 'ftp://127.0.0.1/v1', '--db', url], env);
  assert.equal(badEndpoint.code, 2, badEndpoint.stderr);
  assert.match(badEndpoint.stderr, /--base-url "ftp:\/\/127\.0\.0\.1\/v1" must start with http:\/\/ or https:\/\//);

  // A resume on the queue: the same refusals, and a run that is still running or unknown; nothing changed.
  const badQueue = queueName('bad');
  const running = await runAssay([...args, '--queue', REDIS, '--queue-name', badQueue, '--db', url, '--detach', '--json'], env);
  assert.equal(running.code, 0, running.stderr);
  const { run } = JSON.parse(running.stdout) as { run: string };
  const resumeCases: [string[], RegExp][] = [
    [[run, '--queue', REDIS, '--db', url], /is still running on queue e2e-bad-/],
    [['no-such-run', '--queue', REDIS, '--db', url], /no run "no-such-run"/],
    [[run, '--queue', REDIS, '--retry-errors', '--db', url], /--retry-errors does not go with --queue/],
    [[run, '--queue', REDIS, '--db', join(dir, 'local.db')], /needs a store every worker reaches/],
    [[run, '--queue', 'redis://127.0.0.1:1', '--db', url], /cannot reach Redis/],
    [[run, '--detach', '--db', url], /go with --queue/],
    [[run, '--queue', REDIS, '--base-url', 'http://127.0.0.1:9/v1', '--db', url], /^assay: --base-url does not go with --queue: workers call only their own endpoint/],
  ];
  for (const [extra, message] of resumeCases) {
    const out = await runAssay(['resume', ...extra], env);
    assert.equal(out.code, 2, `resume ${extra.join(' ')}: ${out.stderr}`);
    assert.match(out.stderr, message);
    assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
  }
  const after = await openStore(url);
  try {
    assert.equal((await after.getRun(run))?.status, 'running');
    assert.equal(queueOf((await after.getRun(run))!)?.session, undefined);
  } finally {
    await after.close();
    // No worker takes that run: its units leave the machine's Redis with the queue.
    const queue = new Queue(badQueue, { connection: { url: REDIS }, prefix: QUEUE_PREFIX });
    await queue.obliterate({ force: true });
    await queue.close();
  }
});

/** A Redis of the test's own (append-only file, fsync on every write), so it can be killed and brought back without touching the machine's. */
async function privateRedis(folder: string, port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', folder], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  await waitFor('the private Redis to listen', async () => /Ready to accept connections/.test(output), 30_000);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

test('Redis going away mid-run: the worker keeps going when it comes back, and every unit is recorded once', { timeout: 600_000 }, async (t) => {
  const { url } = await schemas.create();
  const folder = mkdtempSync(join(dir, 'redis-'));
  const port = 20_000 + (process.pid % 20_000);
  let redis = await privateRedis(folder, port);
  const server = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), latencyMs: 40 });
  const store = await openStore(url);
  try {
    const samples = 300;
    const args = ['run', 'metatool/similar', '-m', MODEL, '--per-tool', '3', '--limit', String(samples), '--seed', '5', '--json'];
    const detached = await runAssay([...args, '--queue', redis.url, '--db', url, '--detach'], env);
    assert.equal(detached.code, 0, detached.stderr);
    const { run } = JSON.parse(detached.stdout) as { run: string };
    const child = spawnAssay(['worker', '--queue', redis.url, '--db', url, '--base-url', server.url, '--concurrency', '4'], env);
    children.push(child);
    const worker = collect(child);
    await waitFor('some results', async () => (await store.finishedSampleIds(run, MODEL)).size >= samples / 5);
    await redis.stop();
    const atStop = (await store.finishedSampleIds(run, MODEL)).size;
    await sleep(3_000);
    assert.equal(child.exitCode, null, 'the worker lives on while Redis is away');
    redis = await privateRedis(folder, port);
    await waitFor('the run to finish', async () => (await store.getRun(run))?.status === 'finished');
    const results = await store.results(run, undefined, { outputs: false });
    assert.equal(results.length, samples);
    assert.ok(results.every((r) => r.status === 'done'));
    const calls = await store.calls(run);
    assert.equal(calls.filter((c) => c.output !== null).length, samples, 'one stored answer per sample');
    child.kill('SIGTERM');
    const out = await worker;
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /queue: .*\(retrying\)/);
    t.diagnostic(`results when Redis was stopped: ${atStop} of ${samples}`);
    const inProcess = await runAssay([...args, '--base-url', server.url, '--db', join(dir, 'redis-away.db')], env);
    const shown = await runAssay(['show', run, '--json', '--db', url], env);
    assert.deepEqual((JSON.parse(shown.stdout) as Summary).models, (JSON.parse(inProcess.stdout) as Summary).models);
  } finally {
    await store.close();
    await server.close();
    await redis.stop();
  }
});

test('a failed attempt is not a result while the job has attempts left: only the last attempt’s error is recorded', { timeout: 300_000 }, async () => {
  const { url } = await schemas.create();
  const queue = queueName('attempts');
  // The first key seen fails its first two requests (then answers); the second fails every time.
  // A 400 is not retried by the middleware, so each failure is a job attempt of its own.
  const chosen: string[] = [];
  const server = await startFakeOpenAIServer({
    respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    faults: (ctx) => {
      if (chosen.length < 2 && !chosen.includes(ctx.key)) chosen.push(ctx.key);
      const which = chosen.indexOf(ctx.key);
      if (which === 0 && ctx.attemptForKey <= 2) return { type: 'status', status: 400 };
      if (which === 1) return { type: 'status', status: 400 };
      return undefined;
    },
  });
  const store = await openStore(url);
  try {
    const worker = startWorker(url, queue, ['--base-url', server.url, '--concurrency', '1']);
    const args = ['run', 'metatool/similar', '-m', MODEL, '--per-tool', '1', '--limit', '6', '--seed', '2', '--json', '--no-fail-fast'];
    const out = await runAssay([...args, '--queue', REDIS, '--queue-name', queue, '--db', url], env);
    assert.equal(out.code, 3, out.stderr); // finished, one sample in error
    const summary = JSON.parse(out.stdout) as Summary;
    assert.deepEqual(summary.models[MODEL]?.counts, { ...summary.models[MODEL]?.counts, done: 5, errors: 1 });
    const samples = await store.loadSamples(summary.run);
    const keyOf = (id: string): string => {
      const content = samples.find((s) => s.id === id)?.input.findLast((m) => m.role === 'user')?.content;
      return typeof content === 'string' ? content : '';
    };
    const results = await store.results(summary.run);
    const flaky = results.find((r) => keyOf(r.sampleId) === chosen[0]);
    const broken = results.find((r) => keyOf(r.sampleId) === chosen[1]);
    assert.equal(flaky?.status, 'done');
    assert.equal(broken?.status, 'error');
    assert.equal(broken?.error?.kind, 'bad-request');
    // Every attempt's calls are kept (the ledger), but one result each.
    assert.deepEqual((await store.calls(summary.run, flaky?.sampleId)).map((c) => (c.error ? c.error.kind : 'ok')), ['bad-request', 'bad-request', 'ok']);
    assert.deepEqual((await store.calls(summary.run, broken?.sampleId)).map((c) => c.error?.kind), ['bad-request', 'bad-request', 'bad-request']);
    assert.equal(results.length, 6);
    worker.child.kill('SIGTERM');
    assert.equal((await worker.exited).code, 0);
  } finally {
    await store.close();
    await server.close();
  }
});

test('a worker that cannot rebuild a run (its data dir lacks the data) records that as each unit’s error on the last attempt, and the run ends', { timeout: 300_000 }, async () => {
  const { url } = await schemas.create();
  const queue = queueName('nodata');
  const args = ['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '3', '--seed', '3', '--json'];
  const detached = await runAssay([...args, '--queue', REDIS, '--queue-name', queue, '--db', url, '--detach'], env);
  assert.equal(detached.code, 0, detached.stderr);
  const { run } = JSON.parse(detached.stdout) as { run: string };
  const worker = startWorker(url, queue, ['--data-dir', mkdtempSync(join(dir, 'empty-'))]);
  let shown: Summary | undefined;
  await waitFor('the run to end', async () => {
    shown = JSON.parse((await runAssay(['show', run, '--json', '--db', url], env)).stdout) as Summary;
    return shown.status === 'finished';
  });
  assert.deepEqual(shown?.models['baseline:lexical']?.counts, { ...shown?.models['baseline:lexical']?.counts, done: 0, errors: 3 });
  const store = await openStore(url);
  try {
    const results = await store.results(run);
    assert.ok(results.every((r) => r.error?.kind === 'worker' && r.error.message.includes(run)), JSON.stringify(results.map((r) => r.error)));
  } finally {
    await store.close();
  }
  worker.child.kill('SIGTERM');
  assert.equal((await worker.exited).code, 0);
});

test('workers share the run’s --rpm through the queue’s Redis: the fleet keeps to one limit over every window of the server’s arrival times', { timeout: 600_000 }, async () => {
  const { url } = await schemas.create();
  const queue = queueName('rpm');
  // 240 a minute: a burst of 240, then 4 a second; 300 samples put 60 beyond the burst (~15 s).
  // A model id of this test's own, so that no other run on this Redis shares its bucket.
  const RPM = 240;
  const model = `openai:rpm-${process.pid}-${Date.now().toString(36)}`;
  const server = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }) });
  try {
    const workers = [startWorker(url, queue, ['--base-url', server.url, '--concurrency', '16']), startWorker(url, queue, ['--base-url', server.url, '--concurrency', '16'])];
    const out = await runAssay(['run', 'metatool/similar', '-m', model, '--per-tool', '2', '--limit', '300', '--seed', '5', '--rpm', String(RPM), '--concurrency', '16', '--json', '--queue', REDIS, '--queue-name', queue, '--db', url], env);
    assert.equal(out.code, 0, out.stderr);
    assert.equal((JSON.parse(out.stdout) as Summary).models[model]?.counts.done, 300);
    for (const w of workers) w.child.kill('SIGTERM');
    for (const w of workers) assert.equal((await w.exited).code, 0);
    const times = server.requests.map((r) => r.receivedAt);
    assert.equal(times.length, 300);
    // A call granted at Redis time g reaches the server by g + 3 s on a loaded machine (see shared-limits.services.test.ts).
    const excess = worstExcess(times, RPM, RPM / 60_000, 3_000);
    assert.ok(excess <= 0, `a window held ${excess.toFixed(1)} requests more than the shared bucket allows`);
    assert.ok(Math.max(...times) - Math.min(...times) >= 7_500, 'the 60 requests beyond the burst waited for the bucket to refill');
  } finally {
    await server.close();
  }
});

test('workers share the run’s --max-cost through the queue’s Redis: the fleet together stops within the cap and what was in flight; resumed on the queue with a larger cap, it finishes', { timeout: 600_000 }, async () => {
  const { url } = await schemas.create();
  const queue = queueName('cost');
  const model = 'openai:priced';
  const server = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), latencyMs: 20 });
  const CAP = 0.012;
  // Two workers, two units at a time each: at most 4 units in flight when the cap is reached.
  const toServer = ['--base-url', server.url, '--concurrency', '2'];
  const workers = [startWorker(url, queue, toServer), startWorker(url, queue, toServer)];
  try {
    const out = await runAssay(
      ['run', 'metatool/similar', '-m', model, '--per-tool', '1', '--limit', '150', '--seed', '6', '--price', `${model}=1/2`, '--max-cost', String(CAP), '--json', '--queue', REDIS, '--queue-name', queue, '--db', url, '--detach'],
      env,
    );
    assert.equal(out.code, 0, out.stderr);
    const { run } = JSON.parse(out.stdout) as { run: string };
    const store = await openStore(url);
    try {
      await waitFor('the run to be interrupted by its cap', async () => (await store.getRun(run))?.status === 'interrupted');
      for (const w of workers) w.child.kill('SIGTERM');
      for (const w of workers) assert.equal((await w.exited).code, 0);
      const calls = await store.calls(run);
      const costs = calls.map((c) => c.costUsd ?? 0);
      const spent = costs.reduce((a, b) => a + b, 0);
      const dearest = Math.max(...costs);
      assert.ok(spent >= CAP, `spent ${spent} before the cap ${CAP} stopped the fleet`);
      // Per-worker budgets would let each worker spend up to the cap (2 × CAP together); one shared spend stops at CAP + what 4 units in flight cost.
      assert.ok(spent < CAP + 4 * dearest, `the fleet spent ${spent}: more than the cap ${CAP} + 4 × ${dearest}`);
      assert.ok(calls.length < 150, 'the cap stopped the run before its end');

      // Resumed on the queue with a larger cap: the new cap is the run's (workers read it from the
      // store), the units without a result are queued again, and none with one is worked again.
      const before = (await store.results(run, undefined, { outputs: false })).length;
      const again = [startWorker(url, queue, toServer), startWorker(url, queue, toServer)];
      const resumed = await runAssay(['resume', run, '--max-cost', '1', '--queue', REDIS, '--queue-name', queue, '--db', url, '--json'], env);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, new RegExp(`run ${run}: .*: ${150 - before} units queued`));
      const finished = JSON.parse(resumed.stdout) as Summary;
      assert.equal(finished.status, 'finished');
      assert.deepEqual([finished.models[model]?.counts.done, finished.models[model]?.counts.errors], [150, 0]);
      assert.equal((await store.getRun(run))?.engine.maxCostUsd, 1);
      const results = await store.results(run, undefined, { outputs: false });
      assert.deepEqual(results.filter((r) => r.cached).map((r) => r.sampleId), [], 'no unit was worked twice (a second time would be answered from the cache)');
      assert.deepEqual([...server.answeredByKey.values()].filter((n) => n !== 1), [], 'every sample answered once');
      for (const w of again) w.child.kill('SIGTERM');
      for (const w of again) assert.equal((await w.exited).code, 0);
      const inProcess = await runAssay(['run', 'metatool/similar', '-m', model, '--base-url', server.url, '--per-tool', '1', '--limit', '150', '--seed', '6', '--price', `${model}=1/2`, '--json', '--db', join(dir, 'cost.db')], env);
      assert.deepEqual(finished.models[model]?.metrics, (JSON.parse(inProcess.stdout) as Summary).models[model]?.metrics);
    } finally {
      await store.close();
    }
  } finally {
    await server.close();
  }
});

test('PostgreSQL unreachable mid-run (connections cut, new ones refused for longer than a unit’s attempts last): workers wait, lose no outcome, call nothing twice, and finish', { timeout: 600_000 }, async (t) => {
  const { url } = await schemas.create();
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(url).port || 5432) });
  const throughProxy = new URL(url);
  throughProxy.port = String(proxy.port);
  const server = await startFakeOpenAIServer({ respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), latencyMs: 40 });
  const store = await openStore(url);
  try {
    const samples = 300;
    const queue = queueName('pg-away');
    const args = ['run', 'metatool/similar', '-m', MODEL, '--per-tool', '3', '--limit', String(samples), '--seed', '6', '--json'];
    const detached = await runAssay([...args, '--queue', REDIS, '--queue-name', queue, '--db', url, '--detach'], env);
    assert.equal(detached.code, 0, detached.stderr);
    const { run } = JSON.parse(detached.stdout) as { run: string };
    const worker = startWorker(throughProxy.toString(), queue, ['--base-url', server.url, '--concurrency', '4']);
    await waitFor('some results', async () => (await store.finishedSampleIds(run, MODEL)).size >= samples / 5);
    proxy.cut();
    const atCut = (await store.finishedSampleIds(run, MODEL)).size;
    // Longer than a unit's three attempts with their backoff (2 s, then 4 s): waiting must not spend them.
    await sleep(9_000);
    assert.equal(worker.child.exitCode, null, 'the worker lives on while PostgreSQL is away');
    const duringCut = (await store.finishedSampleIds(run, MODEL)).size;
    proxy.restore();
    await waitFor('the run to finish', async () => (await store.getRun(run))?.status === 'finished');
    const results = await store.results(run, undefined, { outputs: false });
    assert.equal(results.length, samples);
    assert.deepEqual(results.filter((r) => r.status !== 'done').map((r) => [r.sampleId, r.error?.message]), [], 'no unit ended in error');
    // Every sample asked for once: the outcomes of the calls in flight at the cut were saved after it, not called again.
    const asked = [...server.attemptsByKey.values()];
    assert.equal(asked.length, samples);
    assert.deepEqual(asked.filter((n) => n !== 1), [], 'no sample was asked for twice');
    worker.child.kill('SIGTERM');
    const out = await worker.exited;
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /store unreachable \(.*\): waiting for it to come back/);
    assert.match(out.stderr, /store: reachable again, going on/);
    assert.doesNotMatch(out.stderr, /attempt \d failed/, 'no job attempt was spent on the outage');
    t.diagnostic(`results at the cut: ${atCut}, while cut: ${duringCut}, of ${samples}`);
    const inProcess = await runAssay([...args, '--base-url', server.url, '--db', join(dir, 'pg-away.db')], env);
    const shown = await runAssay(['show', run, '--json', '--db', url], env);
    assert.deepEqual((JSON.parse(shown.stdout) as Summary).models, (JSON.parse(inProcess.stdout) as Summary).models);
  } finally {
    await store.close();
    await server.close();
    await proxy.close();
  }
});

test('resumed while units started before a fail-fast stop are still calling the model: the resume waits for them, and no sample is answered twice', { timeout: 600_000 }, async () => {
  const { url } = await schemas.create();
  // The fourth request is refused (fail-fast stops the model at once); every other answer takes
  // long enough that the units started before it (three at least: refusing the first one instead
  // could stop the run before any other unit had started, as a loaded CI machine once showed)
  // are still in flight when the resume comes.
  const inFlightMs = 6_000;
  const refused = 3;
  const server = await startFakeOpenAIServer({
    respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    latencyMs: (ctx) => (ctx.index === refused ? 0 : inFlightMs),
    faults: (ctx) => (ctx.index === refused ? { type: 'status', status: 401, body: '{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}' } : undefined),
  });
  const store = await openStore(url);
  try {
    const samples = 24;
    const queue = queueName('in-flight');
    const keyed = { ...env, OPENAI_API_KEY: 'some-key' };
    const workers = [0, 1].map(() => startWorker(url, queue, ['--base-url', server.url, '--concurrency', '4'], keyed));
    const args = ['run', 'metatool/similar', '-m', MODEL, '--per-tool', '2', '--limit', String(samples), '--seed', '8', '--json'];
    const submitted = await runAssay([...args, '--queue', REDIS, '--queue-name', queue, '--db', url], env);
    assert.equal(submitted.code, 130, `interrupted: ${submitted.stderr}`);
    const summary = JSON.parse(submitted.stdout) as Summary;
    // A worker with every slot free, to take the resume's units at once: without the wait, the
    // copies of those still in flight on the others.
    workers.push(startWorker(url, queue, ['--base-url', server.url, '--concurrency', '4'], keyed));
    // At once, the workers still running: the units they started before the stop are in flight.
    const resumed = await runAssay(['resume', summary.run, '--queue', REDIS, '--queue-name', queue, '--db', url, '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /waiting for \d+ of its units still in flight on workers/, 'the resume came while units were in flight');
    for (const w of workers) w.child.kill('SIGTERM');
    const out = await Promise.all(workers.map((w) => w.exited));
    for (const o of out) assert.equal(o.code, 0, o.stderr);
    const twice = [...server.answeredByKey].filter(([, n]) => n !== 1);
    assert.deepEqual(twice, [], `every sample answered once; the workers said:\n${out.map((o) => o.stderr).join('\n')}`);
    assert.equal(server.answeredByKey.size, samples);
    const finished = JSON.parse(resumed.stdout) as Summary;
    assert.equal(finished.status, 'finished');
    assert.deepEqual([finished.models[MODEL]?.counts.done, finished.models[MODEL]?.counts.errors], [samples, 0]);
  } finally {
    await store.close();
    await server.close();
  }
});

test('a wrong key on the fleet: the first 401 stops the model over every worker, the run ends interrupted and says why, and resumed on the queue once the workers have the right key, it finishes', { timeout: 600_000 }, async (t) => {
  const { url } = await schemas.create();
  // 401 unless the request carries the right key: what a provider answers to a wrong one.
  const server = await startFakeOpenAIServer({
    respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    latencyMs: 20,
    faults: (ctx) => (ctx.headers.authorization === 'Bearer right-key' ? undefined : { type: 'status', status: 401, body: '{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}' }),
  });
  const store = await openStore(url);
  try {
    const samples = 200;
    const queue = queueName('fail-fast');
    const args = ['run', 'metatool/similar', '-m', MODEL, '--per-tool', '2', '--limit', String(samples), '--seed', '8', '--json'];
    const workers = [0, 1].map(() => startWorker(url, queue, ['--base-url', server.url, '--concurrency', '4'], { ...env, OPENAI_API_KEY: 'wrong-key' }));
    const submitted = await runAssay([...args, '--queue', REDIS, '--queue-name', queue, '--db', url], env);
    assert.equal(submitted.code, 130, `interrupted: ${submitted.stderr}`);
    const summary = JSON.parse(submitted.stdout) as Summary & { fail_fast?: { actor: string; kind: string; advice: string }[] };
    assert.equal(summary.status, 'interrupted');
    assert.deepEqual(summary.fail_fast?.map((s) => [s.actor, s.kind]), [[MODEL, 'auth']]);
    assert.match(summary.fail_fast?.[0]?.advice ?? '', /fix the API key .* then assay resume/);
    // Two workers of 4 units each: at most what was in flight when each saw the stop, not 200 units × 3 attempts.
    const asked = server.requestCount;
    assert.ok(asked >= 1 && asked <= 16, `requests with the wrong key: ${asked}`);
    t.diagnostic(`requests with the wrong key: ${asked} (of ${samples} units × 3 attempts without fail-fast)`);
    for (const w of workers) w.child.kill('SIGTERM');
    for (const w of workers) {
      const out = await w.exited;
      assert.equal(out.code, 0, out.stderr);
    }
    const stderr = (await Promise.all(workers.map((w) => w.exited))).map((o) => o.stderr).join('\n');
    assert.match(stderr, /warning: stopped openai:fake-model after 1 auth error — the provider refuses the credentials/);
    const results = await store.results(summary.run, undefined, { outputs: false });
    assert.ok(results.length < samples, `units with a result: ${results.length}`);

    // The key fixed on the workers, the run resumed on the queue.
    const fixed = [0, 1].map(() => startWorker(url, queue, ['--base-url', server.url, '--concurrency', '4'], { ...env, OPENAI_API_KEY: 'right-key' }));
    const resumed = await runAssay(['resume', summary.run, '--queue', REDIS, '--queue-name', queue, '--db', url, '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    for (const w of fixed) w.child.kill('SIGTERM');
    const fixedOut = await Promise.all(fixed.map((w) => w.exited));
    for (const out of fixedOut) assert.equal(out.code, 0, out.stderr);
    // Should a sample be answered twice, the workers' notes say why (a unit found stalled, a redelivery).
    const twice = [...server.answeredByKey].filter(([, n]) => n !== 1);
    assert.deepEqual(twice, [], `every sample answered once, with the right key; the workers said:\n${fixedOut.map((o) => o.stderr).join('\n')}`);
    const finished = JSON.parse(resumed.stdout) as Summary;
    assert.equal(finished.status, 'finished');
    assert.deepEqual([finished.models[MODEL]?.counts.done, finished.models[MODEL]?.counts.errors], [samples, 0]);
    const inProcess = await runAssay([...args, '--base-url', server.url, '--db', join(dir, 'fail-fast.db')], { ...env, OPENAI_API_KEY: 'right-key' });
    assert.deepEqual(finished.models[MODEL]?.metrics, (JSON.parse(inProcess.stdout) as Summary).models[MODEL]?.metrics);
  } finally {
    await store.close();
    await server.close();
  }
});
