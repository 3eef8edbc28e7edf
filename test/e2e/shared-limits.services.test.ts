import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { startFakeOpenAIServer, type FakeServer, type RecordedRequest } from '../../src/testing/fake-openai-server.js';
import { runAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { worstExcess } from '../../src/testing/bucket-check.js';
import { testDataDir } from '../../src/testing/test-data.js';

// Several `assay run` processes (real OS processes) calling one loopback server with one
// --rpm, sharing it through the real Redis (--shared-limits), checked on the server's own
// request timestamps.

const REDIS_URL = 'redis://127.0.0.1:6379';
const dataDir = testDataDir();
const PROCESSES = 3;

let dir: string;
let redis: Redis;
const prefixes: string[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-shared-limits-'));
  redis = new Redis(REDIS_URL);
});

after(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

/** A key prefix no other test or engineer on this machine uses. */
function uniquePrefix(): string {
  const prefix = `assay-test:${randomUUID()}:`;
  prefixes.push(prefix);
  return prefix;
}

/** Which of the processes sent a request: each asks for its own --max-tokens (100 + its number). */
const processOf = (request: RecordedRequest): number => ((request.body as { max_tokens?: number }).max_tokens ?? 0) - 100;

/** `assay run` in process `i` of a fleet: the same model id and --rpm everywhere, its own database. */
function runProcess(i: number, server: FakeServer, options: { rpm: number; samples: number; shared?: string; name: string }): Promise<CliResult> {
  const args = ['run', 'metatool/similar', '--model', 'openai:fleet-model', '--base-url', server.url, '--per-tool', '1', '--limit', String(options.samples), '--seed', String(i)];
  args.push('--max-tokens', String(100 + i), '--rpm', String(options.rpm), '--concurrency', '8', '--no-cache', '--db', join(dir, `${options.name}-${i}.db`), '--json');
  if (options.shared) args.push('--shared-limits', REDIS_URL, '--shared-limits-prefix', options.shared);
  return runAssay(args, { ASSAY_DATA_DIR: dataDir, OPENAI_API_KEY: 'sk-fleet-test' });
}

async function runFleet(server: FakeServer, options: { rpm: number; samples: number; shared?: string; name: string }): Promise<CliResult[]> {
  const results = await Promise.all(Array.from({ length: PROCESSES }, (_, i) => runProcess(i, server, options)));
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  return results;
}

test('three processes sharing --rpm through Redis keep to one limit over every window; each with its own bucket, they do not', async () => {
  // 240 a minute: a burst of 240, then 4 a second. 3 × 100 requests: 60 beyond the burst, ~15 s.
  const RPM = 240;
  const SAMPLES = 100;
  // A request granted at Redis time g reaches the server at g + d (Redis's reply, the timer firing
  // late on a loaded 2-core machine, the HTTP send). Allowing d ≤ 3 s widens every window by 3 s:
  // 12 requests at this rate. Without sharing, all 300 come within the burst's few seconds.
  const LATENESS_MS = 3_000;
  const perMs = RPM / 60_000;

  const shared = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }) });
  try {
    await runFleet(shared, { rpm: RPM, samples: SAMPLES, shared: uniquePrefix(), name: 'shared' });
    const times = shared.requests.map((r) => r.receivedAt);
    assert.equal(times.length, PROCESSES * SAMPLES);
    assert.deepEqual(new Set(shared.requests.map(processOf)), new Set([0, 1, 2]));
    const excess = worstExcess(times, RPM, perMs, LATENESS_MS);
    assert.ok(excess <= 0, `a window held ${excess.toFixed(1)} requests more than ${RPM} + ${RPM}/min × (its span + ${LATENESS_MS} ms)`);
    // It did limit: the last 60 could not come before the bucket refilled (60 at 4 a second is 15 s; allow half).
    assert.ok(Math.max(...times) - Math.min(...times) >= 7_500, `all ${times.length} requests within ${Math.max(...times) - Math.min(...times)} ms`);
  } finally {
    await shared.close();
  }

  // The control: the same fleet, each process with its own bucket (no --shared-limits), breaks the bound.
  const separate = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }) });
  try {
    await runFleet(separate, { rpm: RPM, samples: SAMPLES, name: 'separate' });
    const excess = worstExcess(separate.requests.map((r) => r.receivedAt), RPM, perMs, LATENESS_MS);
    assert.ok(excess > 0, 'without the shared limit the fleet passes it (else this test could not fail)');
  } finally {
    await separate.close();
  }
});

test('a 429 with Retry-After answered to one process holds every process sharing the limit until then', async () => {
  // A limit far above the traffic, so that only the 429 holds anyone; 100 ms per answer keeps
  // the three processes sending for seconds.
  const RPM = 6_000;
  const RETRY_AFTER_S = 4;
  // Calls granted before the back-off reached Redis may still arrive just after the 429.
  const IN_FLIGHT_MS = 1_500;
  let faulted = false;
  const seen = new Map<number, number>();
  const server = await startFakeOpenAIServer({
    respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }),
    latencyMs: 100,
    // Once every process has sent 3 requests (they start a second or two apart), the next one gets the 429.
    faults: (ctx) => {
      const from = ((ctx.body as { max_tokens?: number }).max_tokens ?? 0) - 100;
      seen.set(from, (seen.get(from) ?? 0) + 1);
      if (faulted || seen.size < PROCESSES || [...seen.values()].some((n) => n < 3)) return undefined;
      faulted = true;
      return { type: 'status', status: 429, retryAfter: String(RETRY_AFTER_S) };
    },
  });
  try {
    await runFleet(server, { rpm: RPM, samples: 40, shared: uniquePrefix(), name: 'hold' });
    const limited = server.requests.find((r) => r.status === 429);
    assert.ok(limited?.finishedAt !== undefined);
    const t429 = limited.finishedAt;
    const early = server.requests.filter((r) => r.receivedAt < t429);
    assert.deepEqual(new Set(early.map(processOf)), new Set([0, 1, 2]), 'all three were sending before the 429');
    const during = server.requests.filter((r) => r.receivedAt >= t429 + IN_FLIGHT_MS && r.receivedAt < t429 + RETRY_AFTER_S * 1000);
    assert.deepEqual(
      during.map((r) => `process ${processOf(r)} at +${r.receivedAt - t429} ms`),
      [],
      'no process sent a request while the Retry-After held',
    );
    const later = server.requests.filter((r) => r.receivedAt >= t429 + RETRY_AFTER_S * 1000);
    const others = new Set(later.map(processOf).filter((p) => p !== processOf(limited)));
    assert.ok(others.size >= 1, 'the other processes went on after the hold');
    assert.equal(server.requests.filter((r) => r.outcome === 'answered').length, PROCESSES * 40);
  } finally {
    await server.close();
  }
});
