import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../../src/testing/gate.js';
import { after, test } from 'node:test';
import { Queue } from 'bullmq';
import { answerSummariesRequest } from '../../src/demo/answers/summaries.js';
import { DEMO_TEXTS_DIR } from '../../src/demo/demo-tasks.js';
import { QUEUE_PREFIX } from '../../src/queue/queue-location.js';
import { openStore } from '../../src/store/open-store.js';
import { ScratchSchemas } from '../../src/store/postgres/test-support/scratch-schemas.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { CANARY_KEY } from '../../src/testing/canary.js';
import { assertNoCanary, readRunEverywhere } from '../../src/testing/canary-sweep.js';
import { collect, runAssay, spawnAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { ScratchQueues, TEST_REDIS_URL } from '../../src/queue/test-support/scratch-queues.js';

// `assay worker --config FILE` (issue 23 §3): a queued run's declared names are built from the
// worker's own file, with the worker's keys. A run whose recorded declaration differs from the
// worker's (here: the submitter's file named another base URL) gets nothing called — no request
// reaches the URL it names — and each of its units is an error naming the field. `npm run test:services`.
const REDIS = TEST_REDIS_URL;
const queues = new ScratchQueues(REDIS);
const schemas = new ScratchSchemas();
const children: ChildProcess[] = [];
// small's key is the canary: it must reach small's server and nothing else (not the URL the other run names, no output).
const SMALL_KEY = CANARY_KEY;
const BIG_KEY = 'worker-big-key-456789';
let dir: string | undefined;

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await queues.dropAll();
  await schemas.dropAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A demo-answering server that accepts only `key`. */
function keyed(key: string): Promise<FakeServer> {
  return startFakeOpenAIServer({
    respond: answerSummariesRequest,
    faults: (ctx) => (ctx.headers.authorization === `Bearer ${key}` ? undefined : { type: 'status', status: 401, body: '{"error":{"message":"wrong key"}}' }),
  });
}

/** Counts every request that reaches it, and answers 500. */
async function counting(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((request, response) => {
    count++;
    request.resume();
    request.on('end', () => response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"not for you"}}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, count: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const config = (smallUrl: string, bigUrl: string): string =>
  ['models:', '  small:', '    provider: openai', '    model: writer-a', `    baseUrl: ${smallUrl}`, '    apiKeyEnv: SMALL_KEY', '  big:', '    provider: openai', '    model: judge', `    baseUrl: ${bigUrl}`, '    apiKeyEnv: BIG_KEY', ''].join('\n');

test('a worker builds a queued run\'s declared names from its own config file; a run declaring them otherwise calls nothing and each unit names the field', { timeout: 600_000 }, async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-config-worker-'));
  const { url } = await schemas.create();
  const queue = queues.name('config');
  const small = await keyed(SMALL_KEY);
  const big = await keyed(BIG_KEY);
  const elsewhere = await counting();
  const workerFile = join(dir, 'worker.yaml');
  writeFileSync(workerFile, config(small.url, big.url));
  const otherFile = join(dir, 'other.yaml');
  writeFileSync(otherFile, config(elsewhere.url, big.url));
  const store = await openStore(url);
  let worker: { child: ChildProcess; exited: Promise<CliResult> } | undefined;
  try {
    // The submitter has no keys: it calls nothing, and the workers' environment holds them.
    const submit = async (file: string): Promise<string> => {
      const out = await runAssay(['run', 'summaries/alignment', '--config', file, '-m', 'small', '--judge', 'big', '--articles', join(DEMO_TEXTS_DIR, 'articles'), '--json', '--queue', REDIS, '--queue-name', queue, '--db', url, '--detach'], { SMALL_KEY: '', BIG_KEY: '', ASSAY_CONFIG: '' });
      assert.equal(out.code, 0, out.stderr);
      return (JSON.parse(out.stdout) as { run: string }).run;
    };
    const same = await submit(workerFile);
    const changed = await submit(otherFile);
    const recorded = await store.getRun(changed);
    assert.equal(recorded?.models[0], 'small');

    const child = spawnAssay(['worker', '--queue', REDIS, '--queue-name', queue, '--db', url, '--concurrency', '2', '--config', workerFile], { SMALL_KEY, BIG_KEY, ASSAY_QUEUE_LOCK_MS: '4000', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });
    children.push(child);
    worker = { child, exited: collect(child) };
    await waitUntil(async () => (await store.getRun(same))?.status === 'finished' && (await store.getRun(changed))?.status === 'finished', 'both runs to finish', 240_000, 200);

    const served = await store.results(same, undefined, { outputs: false });
    assert.equal(served.length, 4);
    assert.deepEqual([...new Set(served.map((r) => r.status))], ['done'], JSON.stringify(served.map((r) => r.error)));
    assert.ok(small.requests.length >= 4 && small.requests.every((r) => r.status === 200), 'small\'s server answered, with small\'s key');
    assert.ok(big.requests.length > 0 && big.requests.every((r) => r.status === 200), 'the judge\'s server answered, with the judge\'s key');

    assert.equal(elsewhere.count(), 0, 'no request reached the URL the other run declared');
    const refused = await store.results(changed);
    assert.equal(refused.length, 4);
    for (const result of refused) {
      assert.equal(result.status, 'error');
      assert.equal(result.error?.kind, 'worker');
      assert.match(result.error?.message ?? '', /model "small": this worker declares it differently from the run's record: baseUrl was /);
    }
    assert.deepEqual(await store.calls(changed), [], 'nothing was called for the run declared otherwise');

    child.kill('SIGTERM');
    const log = await worker.exited;
    assert.equal(log.code, 0, log.stderr);
    for (const key of [SMALL_KEY, BIG_KEY]) assert.ok(!log.stderr.includes(key));
    assertNoCanary('the worker\'s output', `${log.stdout}\n${log.stderr}`);
    for (const run of [same, changed]) for (const [name, text] of Object.entries(await readRunEverywhere(run, url, dir))) assertNoCanary(`${name} of run ${run}`, text);
  } finally {
    worker?.child.kill('SIGKILL');
    await store.close();
    await small.close();
    await big.close();
    await elsewhere.close();
    const leftover = new Queue(queue, { connection: { url: REDIS }, prefix: QUEUE_PREFIX });
    await leftover.obliterate({ force: true }).catch(() => undefined);
    await leftover.close();
  }
});
