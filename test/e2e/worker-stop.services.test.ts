import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil } from '../../src/testing/gate.js';
import { after, test } from 'node:test';
import { Queue } from 'bullmq';
import { QUEUE_PREFIX } from '../../src/queue/queue-location.js';
import { ScratchSchemas } from '../../src/store/postgres/test-support/scratch-schemas.js';
import { openStore } from '../../src/store/open-store.js';
import { startFakeOpenAIServer, type Fault } from '../../src/testing/fake-openai-server.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { collect, runAssay, spawnAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { testDataDir } from '../../src/testing/test-data.js';
import { ScratchQueues, TEST_REDIS_URL } from '../../src/queue/test-support/scratch-queues.js';

// Issue 26, gap (b) (`npm run test:services`): a worker's first SIGTERM ends a unit's sleeping
// retry wait, as the first Ctrl-C does for an in-process run. Before, the worker slept out the
// server's Retry-After (here 300 s) before it could stop. The bound below is what "promptly" means,
// kept generous for a loaded machine: a fifth of the wait it replaces.
const REDIS = TEST_REDIS_URL;
const queues = new ScratchQueues(REDIS);
const schemas = new ScratchSchemas();
const env = { ASSAY_DATA_DIR: testDataDir(), OPENAI_API_KEY: 'sk-test-worker-stop', ASSAY_QUEUE_LOCK_MS: '4000', ASSAY_RETRY_NOTICE_MS: '1000' };
const RETRY_AFTER_S = 300;
const PROMPT_MS = 60_000;
const SAMPLES = 2;
const children: ChildProcess[] = [];

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await queues.dropAll();
  await schemas.dropAll();
});

test('the first SIGTERM ends a worker sleeping out a Retry-After: it exits promptly, its units back on the queue with their attempts, and another worker finishes them', { timeout: 600_000 }, async () => {
  const { url } = await schemas.create();
  const queueName = queues.name('stop');
  let limited = true;
  const server = await startFakeOpenAIServer({
    respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    faults: (): Fault | undefined => (limited ? { type: 'status', status: 429, retryAfter: String(RETRY_AFTER_S) } : undefined),
  });
  const queue = new Queue(queueName, { connection: { url: REDIS }, prefix: QUEUE_PREFIX });
  try {
    // The workers call their own endpoint (--base-url): a queued run names none.
    const args = ['run', 'metatool/similar', '-m', 'openai:limited', '--per-tool', '1', '--limit', String(SAMPLES), '--seed', '3', '--no-cache', '--json'];
    const queued = await runAssay([...args, '--queue', REDIS, '--queue-name', queueName, '--db', url, '--detach'], env);
    assert.equal(queued.code, 0, queued.stderr);
    const { run } = JSON.parse(queued.stdout) as { run: string };

    const worker = (): { child: ChildProcess; exited: Promise<CliResult>; log: () => string } => {
      const child = spawnAssay(['worker', '--queue', REDIS, '--queue-name', queueName, '--db', url, '--base-url', server.url, '--max-retry-wait', '600'], env);
      children.push(child);
      let log = '';
      child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      return { child, exited: collect(child), log: () => log };
    };
    const first = worker();
    await waitUntil(() => server.requests.length >= SAMPLES && first.log().includes('before retrying'), 'both units to wait out the Retry-After', 240_000, 200);
    assert.match(first.log(), new RegExp(`waiting ${RETRY_AFTER_S / 60} min \\(${RETRY_AFTER_S} s\\) before retrying`));

    const signalled = Date.now();
    first.child.kill('SIGTERM');
    const late = Symbol('late');
    const timer = new AbortController();
    const exit = await Promise.race([first.exited, sleep(PROMPT_MS, late, { signal: timer.signal }).catch(() => late)]);
    timer.abort();
    assert.notEqual(exit, late, `the worker did not stop within ${PROMPT_MS / 1000} s of SIGTERM (it sleeps out the ${RETRY_AFTER_S} s wait)`);
    const stopped = exit as CliResult;
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stderr, /worker stopped/);
    const took = Date.now() - signalled;

    // Nothing recorded, nothing failed: both units are waiting on the queue again, attempts unspent.
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'failed', 'completed', 'delayed');
    assert.deepEqual({ ...counts, waiting: (counts['waiting'] ?? 0) + (counts['prioritized'] ?? 0), prioritized: 0 }, { waiting: SAMPLES, prioritized: 0, active: 0, failed: 0, completed: 0, delayed: 0 });
    for (const job of await queue.getJobs(['waiting', 'prioritized'])) assert.equal(job.attemptsMade, 0, `job ${job.id} spent an attempt`);
    const store = await openStore(url);
    try {
      assert.deepEqual(await store.results(run), []);
    } finally {
      await store.close();
    }

    // Another worker takes them and the run finishes.
    limited = false;
    const second = worker();
    await waitUntil(async () => (JSON.parse((await runAssay(['show', run, '--json', '--db', url], env)).stdout) as { status: string }).status === 'finished', 'the run to finish', 240_000, 200);
    second.child.kill('SIGTERM');
    assert.equal((await second.exited).code, 0);
    const after = await openStore(url);
    try {
      const results = await after.results(run);
      assert.deepEqual(results.map((r) => r.status), Array(SAMPLES).fill('done'));
    } finally {
      await after.close();
    }
    assert.ok(took < PROMPT_MS, `${took} ms`);
  } finally {
    await queue.close();
    await server.close();
  }
});
