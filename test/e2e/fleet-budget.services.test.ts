import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { startFakeOpenAIServer } from '../../src/testing/fake-openai-server.js';
import { collect } from '../../src/testing/spawn-cli.js';
import { testDataDir } from '../../src/testing/test-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

// Two OS processes, each running samples of a MetaTool run with --max-cost, share one spend in
// the real Redis (FleetBudget): once it reaches the cap, neither starts another sample.

const REDIS_URL = 'redis://127.0.0.1:6379';
const worker = join(dirname(fileURLToPath(import.meta.url)), '../../src/testing/fleet-budget-worker.js');
const PREFIX = `assay-test:${randomUUID()}:`;
const WORKERS = 2;
const CONCURRENCY = 2;
const SAMPLES = 40;
// A MetaTool prompt is ~600 tokens by the server's count at $1 per million in, so a call costs
// ~$0.0006: the cap is ~20 calls, about 10 per worker when they share it, 20 each if they did not.
const CAP = 0.012;

let dir: string;
let redis: Redis;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-fleet-budget-'));
  redis = new Redis(REDIS_URL);
});

after(async () => {
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

test('two processes sharing --max-cost through Redis stop starting samples once their spend together reaches it', async () => {
  // No answer until both workers have asked (they start a second or so apart), so they spend together.
  const asked = new Set<number>();
  let bothAsked!: () => void;
  const together = new Promise<void>((resolve) => (bothAsked = resolve));
  const server = await startFakeOpenAIServer({
    respond: async (body, ctx) => {
      asked.add(body['max_tokens'] as number);
      if (asked.size === WORKERS) bothAsked();
      await together;
      return { text: answerMetaToolPrompt(ctx.key) };
    },
    latencyMs: 20,
  });
  try {
    const runs = await Promise.all(
      Array.from({ length: WORKERS }, (_, i) => {
        const args = { redisUrl: REDIS_URL, prefix: PREFIX, fleetRun: 'one-run', serverUrl: server.url, db: join(dir, `w${i}.db`), dataDir: testDataDir(), capUsd: CAP, samples: SAMPLES, concurrency: CONCURRENCY, maxTokens: 101 + i };
        return collect(spawn(process.execPath, [worker, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'] }));
      }),
    );
    const outcomes = runs.map((r) => {
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as { run: string; status: string; spentUsd: number };
    });
    // What the calls cost, read from each worker's own store; the dearest one bounds a sample in flight.
    let dearest = 0;
    for (const [i, o] of outcomes.entries()) {
      const store = await openSqliteStore(join(dir, `w${i}.db`));
      for (const call of await store.calls(o.run)) dearest = Math.max(dearest, call.costUsd ?? Infinity);
      await store.close();
    }
    const total = outcomes.reduce((sum, o) => sum + o.spentUsd, 0);
    const shared = Number(await redis.get(`${PREFIX}spend:one-run`));
    assert.deepEqual(outcomes.map((o) => o.status), ['interrupted', 'interrupted'], 'both stopped by the cap before their 40 samples');
    assert.ok(total >= CAP - 1e-9, `together they spent $${total}, under the cap $${CAP}`);
    // Each worker may finish the one sample it had started per worker slot: 2 workers × 2 slots.
    assert.ok(total < CAP + WORKERS * CONCURRENCY * dearest, `together $${total}, cap $${CAP}, in-flight bound ${WORKERS * CONCURRENCY} × $${dearest}`);
    assert.ok(Math.min(...outcomes.map((o) => o.spentUsd)) < CAP, 'a worker that had spent less than the cap alone stopped: the shared spend stopped it');
    assert.ok(Math.abs(shared - total) < 1e-9, `Redis holds $${shared}, the stores $${total}`);
  } finally {
    await server.close();
  }
});
