import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '../../src/testing/gate.js';
import { after, test } from 'node:test';
import { Queue } from 'bullmq';
import { QUEUE_PREFIX } from '../../src/queue/queue-location.js';
import { openStore } from '../../src/store/open-store.js';
import { ScratchSchemas } from '../../src/store/postgres/test-support/scratch-schemas.js';
import { CANARY_KEY } from '../../src/testing/canary.js';
import { assertNoCanary } from '../../src/testing/canary-sweep.js';
import { startFakeOpenAIServer } from '../../src/testing/fake-openai-server.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { collect, runAssay, spawnAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { ScratchQueues, TEST_REDIS_URL } from '../../src/queue/test-support/scratch-queues.js';

// A worker sends its own provider key to the endpoint it calls, so it calls only its own (issue 23
// §3): a run row naming another URL — written by an earlier assay, or by hand, since `run --queue
// --base-url` is refused — gets nothing called there and no key sent; its units end in an error
// naming the field. `npm run test:services`.
const REDIS = TEST_REDIS_URL;
const queues = new ScratchQueues(REDIS);
const schemas = new ScratchSchemas();
const children: ChildProcess[] = [];
const MODEL = 'openai:fake-model';

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await queues.dropAll();
  await schemas.dropAll();
});

interface Received {
  readonly url: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** An endpoint that records every request that reaches it (headers, the key's included, and body) and answers 500. */
async function startCountingServer(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ url: request.url, headers: request.headers, body });
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"not for you"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('workers call only their own endpoint: a run row naming another URL gets no request and no key there, and each of its units is an error naming engine.openaiBaseURL', { skip: needsData('metatool'), timeout: 600_000 }, async () => {
  const { url } = await schemas.create();
  const queue = queues.name('endpoint');
  // Server A is the workers' own endpoint and answers only the workers' canary key; B is the URL a run row names.
  const a = await startFakeOpenAIServer({
    respond: (_b, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    faults: (ctx) => (ctx.headers.authorization === `Bearer ${CANARY_KEY}` ? undefined : { type: 'status', status: 401, body: '{"error":{"message":"wrong key"}}' }),
  });
  const b = await startCountingServer();
  const env = { ASSAY_DATA_DIR: testDataDir(), ASSAY_QUEUE_LOCK_MS: '4000' };
  const store = await openStore(url);
  const workers: { child: ChildProcess; exited: Promise<CliResult> }[] = [];
  try {
    // Two runs queued with no worker on the queue yet; then their rows are written as an earlier
    // assay (or a hand) would leave them: one naming B, one naming A (the workers' own, spelled with a trailing slash).
    // The submitter's own OPENAI_BASE_URL (B here) is not recorded with a queued run, and it is told so.
    const submit = async (seed: string): Promise<string> => {
      const out = await runAssay(['run', 'metatool/similar', '-m', MODEL, '--per-tool', '1', '--limit', '4', '--seed', seed, '--json', '--queue', REDIS, '--queue-name', queue, '--db', url, '--detach'], { ...env, OPENAI_BASE_URL: b.url });
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stderr, /warning: OPENAI_BASE_URL is not sent with a queued run: each worker calls its own endpoint/);
      return (JSON.parse(out.stdout) as { run: string }).run;
    };
    const toB = await submit('1');
    const toA = await submit('2');
    for (const [run, baseUrl] of [[toB, b.url], [toA, `${a.url}/`]] as const) {
      const recorded = await store.getRun(run);
      assert.ok(recorded, run);
      assert.equal(recorded.engine.openaiBaseURL, undefined, 'the CLI records no base URL with a queued run');
      await store.continueRun(run, { ...recorded.engine, openaiBaseURL: baseUrl });
    }

    // Workers with the canary key, pointed at A: one by its --base-url, one by its OPENAI_BASE_URL.
    const workerEnv = { ...env, OPENAI_API_KEY: CANARY_KEY };
    for (const [extra, environment] of [[['--base-url', a.url], workerEnv], [[], { ...workerEnv, OPENAI_BASE_URL: a.url }]] as const) {
      const child = spawnAssay(['worker', '--queue', REDIS, '--queue-name', queue, '--db', url, '--concurrency', '2', ...extra], environment);
      children.push(child);
      workers.push({ child, exited: collect(child) });
    }
    // Each unit of the run naming B is refused on all its attempts (backoff 2 s, then 4 s) before its error is recorded.
    await waitUntil(async () => (await store.getRun(toB))?.status === 'finished' && (await store.getRun(toA))?.status === 'finished', 'both runs to finish', 240_000, 200);

    for (const request of b.received) assertNoCanary(`a request to B (${request.url ?? ''})`, `${JSON.stringify(request.headers)}\n${request.body}`);
    assert.equal(b.received.length, 0, `requests that reached the URL the run row names: ${b.received.length}`);

    const refused = await store.results(toB);
    assert.equal(refused.length, 4);
    for (const result of refused) {
      assert.equal(result.status, 'error');
      assert.equal(result.error?.kind, 'worker');
      assert.match(result.error?.message ?? '', new RegExp(`run ${toB} records engine\\.openaiBaseURL "${b.url.replace(/[.]/g, '\\.')}", which is not this worker's endpoint`));
      assert.ok(!(result.error?.message ?? '').includes(a.url), 'the worker\'s own endpoint is not written to the shared store');
    }
    assert.deepEqual(await store.calls(toB), [], 'nothing was called for the run naming B');

    // The run naming the workers' own endpoint is served there, with their key (A answers no other).
    const served = await store.results(toA, undefined, { outputs: false });
    assert.deepEqual(served.map((r) => r.status), ['done', 'done', 'done', 'done']);
    assert.ok(a.requests.length >= 4 && a.requests.every((r) => r.status === 200), `A's answers: ${a.requests.map((r) => r.status).join(', ')}`);

    for (const w of workers) w.child.kill('SIGTERM');
    const logs = await Promise.all(workers.map((w) => w.exited));
    for (const log of logs) assert.equal(log.code, 0, log.stderr);
    const told = logs.map((log) => log.stderr).join('\n');
    assert.match(told, /engine\.openaiBaseURL/);
    assertNoCanary('the workers\' output', told);
  } finally {
    for (const w of workers) w.child.kill('SIGKILL');
    await store.close();
    await a.close();
    await b.close();
    const leftover = new Queue(queue, { connection: { url: REDIS }, prefix: QUEUE_PREFIX });
    await leftover.obliterate({ force: true }).catch(() => undefined);
    await leftover.close();
  }
});
