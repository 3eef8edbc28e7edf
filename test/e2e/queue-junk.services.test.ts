import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { waitUntil } from '../../src/testing/gate.js';
import { after, test } from 'node:test';
import { Queue } from 'bullmq';
import { QUEUE_PREFIX } from '../../src/queue/queue-location.js';
import { MAX_NOTE_CHARS } from '../../src/queue/unit-worker.js';
import { ScratchSchemas } from '../../src/store/postgres/test-support/scratch-schemas.js';
import { collect, runAssay, spawnAssay } from '../../src/testing/spawn-cli.js';
import { testDataDir } from '../../src/testing/test-data.js';
import { ScratchQueues, TEST_REDIS_URL } from '../../src/queue/test-support/scratch-queues.js';

// Junk on the queue (`npm run test:services`): a job whose fields are a megabyte each and hold
// terminal controls is told in one bounded line of the worker's log, and the worker goes on serving.
const REDIS = TEST_REDIS_URL;
const queues = new ScratchQueues(REDIS);
const schemas = new ScratchSchemas();
const env = { ASSAY_DATA_DIR: testDataDir(), ASSAY_QUEUE_LOCK_MS: '4000' };
const children: ChildProcess[] = [];

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await queues.dropAll();
  await schemas.dropAll();
});

test('a job with a 1 MB run id (and controls) is logged in one bounded, safe line; the worker goes on serving', { timeout: 300_000 }, async () => {
  const { url } = await schemas.create();
  const queueName = queues.name('junk');
  const child = spawnAssay(['worker', '--queue', REDIS, '--queue-name', queueName, '--db', url, '--concurrency', '2'], env);
  children.push(child);
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = collect(child);
  await waitUntil(() => log.includes(`on queue ${queueName}`), 'the worker to start', 240_000, 200);

  const megabyte = 1_000_000;
  const queue = new Queue(queueName, { connection: { url: REDIS }, prefix: QUEUE_PREFIX });
  try {
    // Shaped like a unit, with a run id no store holds; and data that is no unit at all, under a long job id.
    await queue.add('unit', { runId: `${'R'.repeat(megabyte)}\x1b]0;owned\x07`, sampleId: `\x1b[2J${'s'.repeat(megabyte)}`, modelId: 'openai:m\x1b[31m', repeat: 0 });
    await queue.add('unit', { junk: 'x'.repeat(megabyte) }, { jobId: `j${'x'.repeat(10_000)}\x1b[2J` });
    await waitUntil(() => (log.match(/: attempt 1 failed: /g) ?? []).length >= 2, 'both junk jobs to be told as failed', 240_000, 200);
  } finally {
    await queue.close();
  }

  // The worker still takes real units: a small run on the same queue finishes.
  const args = ['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '3', '--seed', '5', '--json'];
  const queued = await runAssay([...args, '--queue', REDIS, '--queue-name', queueName, '--db', url, '--detach'], env);
  assert.equal(queued.code, 0, queued.stderr);
  const { run } = JSON.parse(queued.stdout) as { run: string };
  await waitUntil(async () => (JSON.parse((await runAssay(['show', run, '--json', '--db', url], env)).stdout) as { status: string }).status === 'finished', 'the real run to finish', 240_000, 200);
  assert.equal(child.exitCode, null, 'the worker still runs');

  child.kill('SIGTERM');
  const exit = await exited;
  assert.equal(exit.code, 0, exit.stderr.slice(0, 2000));
  // Every line is bounded (its marker aside) and no control from the job reached the log.
  const lines = exit.stderr.split('\n');
  const longest = Math.max(...lines.map((line) => line.length));
  assert.ok(longest <= MAX_NOTE_CHARS + 100, `the longest log line has ${longest} characters`);
  assert.ok(exit.stderr.length < 50_000, `the log has ${exit.stderr.length} characters`);
  assert.ok(!exit.stderr.includes('\x1b'), 'no ESC in the log');
  const told = lines.filter((line) => line.includes(': attempt 1 failed: '));
  assert.equal(told.length, 2, told.join('\n').slice(0, 4000));
  // The lines say what was left out (a field keeps its first 200 characters, its ESC among them), and show the controls.
  assert.ok(told.some((line) => /^unit \\u001b\[2Js{196}… \(999804 more characters\) of run R{200}… \(\d+ more characters\) on openai:m\\u001b\[31m: /.test(line)), told.join('\n').slice(0, 4000));
  assert.ok(told.some((line) => /^job jx{199}… \(\d+ more characters\): attempt 1 failed: job jx{199}… \(\d+ more characters\) is not an assay unit$/.test(line)), told.join('\n').slice(0, 4000));
});
