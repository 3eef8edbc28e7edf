import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { InputError } from '../../src/core/errors.js';
import { resumeRun, startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { totalSpend } from '../../src/store/spend.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { runAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const dataDir = testDataDir();
const MODEL = 'openai:fake-model';
const SAMPLES = 40;
const CONCURRENCY = 3;
// USD per million tokens: a MetaTool prompt is ~600 tokens by the server's 4-characters count, so a call costs ~$0.0006.
const PRICE = { inputPerMillion: 1, outputPerMillion: 2 };
const CAP = 0.005;

let server: FakeServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-budget-'));
  server = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), latencyMs: 5 });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const spec = (engine: Partial<RunSpec['engine']> = {}): RunSpec => ({
  task: 'metatool/similar',
  models: [MODEL],
  seed: 4,
  options: { perTool: 1, limit: SAMPLES },
  dataDir,
  engine: { concurrency: CONCURRENCY, timeoutMs: 2000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false, openaiBaseURL: server.url, prices: { [MODEL]: PRICE }, ...engine },
});

test('--max-cost stops starting samples once the spend reaches it; in-flight ones finish; resume with a higher cap completes the run', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'capped.db'));
  const warnings: string[] = [];
  const stopped = await startRun(spec({ maxCostUsd: CAP }), { store, onWarning: (w) => warnings.push(w) });
  assert.equal(stopped.status, 'interrupted');
  const counts = stopped.models[MODEL]?.counts;
  assert.ok(counts && counts.done > 0 && counts.pending > 0 && counts.errors === 0, JSON.stringify(counts));

  // The spend reached the cap, and passed it by no more than the samples that were in flight.
  const calls = await store.calls(stopped.run);
  const costs = calls.map((c) => c.costUsd ?? NaN);
  const maxCall = Math.max(...costs);
  const spent = totalSpend(await store.runSpend(stopped.run)).usd;
  assert.ok(spent >= CAP, `spent ${spent}`);
  assert.ok(spent - CAP < CONCURRENCY * maxCall, `spent ${spent}, cap ${CAP}, dearest call ${maxCall}`);
  assert.equal(calls.length, counts.done, 'every call is a finished sample: nothing was cut short');
  assert.ok(Math.abs(spent - (counts.cost_usd ?? NaN)) < 1e-12, 'the summary reports the same spend');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', new RegExp(`^stopped: spent \\$0\\.00\\d+ of --max-cost \\$0\\.005; the samples in flight were finished\\. To go on: assay resume ${stopped.run} --max-cost <more USD>$`));

  // Resumed with the same cap: nothing more is called.
  const requests = server.requestCount;
  const again = await resumeRun(stopped.run, {}, { store, onWarning: (w) => warnings.push(w) });
  assert.equal(again.status, 'interrupted');
  assert.equal(server.requestCount, requests);
  assert.deepEqual(again.models[MODEL]?.counts, counts);

  // With a higher cap it finishes, with the metrics of a run that never stopped.
  const finished = await resumeRun(stopped.run, { engine: { maxCostUsd: 1 } }, { store });
  assert.equal(finished.status, 'finished');
  assert.equal(finished.models[MODEL]?.counts.done, SAMPLES);
  const uncapped = await startRun(spec(), { store: await openSqliteStore(join(dir, 'uncapped.db')) });
  assert.deepEqual(finished.models[MODEL]?.metrics, uncapped.models[MODEL]?.metrics);
  await store.close();
});

test('--max-cost without a price for a paid model is refused before anything is recorded; free models need none', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'unpriced.db'));
  await assert.rejects(
    startRun(spec({ maxCostUsd: 1, prices: {} }), { store }),
    (e: unknown) => e instanceof InputError && /--max-cost needs the price of every paid model, and openai:fake-model has none known: give --price openai:fake-model=IN\/OUT/.test(e.message),
  );
  assert.deepEqual(await store.listRuns(), []);
  const free = await startRun({ ...spec({ maxCostUsd: 0.01, prices: {} }), models: ['baseline:lexical'] }, { store });
  assert.equal(free.status, 'finished');
  assert.equal(free.models['baseline:lexical']?.counts.done, SAMPLES);
  await store.close();
});

test('assay run --max-cost: exit 130 with the reason on stderr; assay resume --max-cost goes on', { skip }, async () => {
  const db = join(dir, 'cli.db');
  const env = { ASSAY_DATA_DIR: dataDir };
  const args = ['run', 'metatool/similar', '--model', MODEL, '--base-url', server.url, '--per-tool', '1', '--limit', String(SAMPLES), '--seed', '4', '--concurrency', '2', '--no-cache', '--price', `${MODEL}=1/2`, '--db', db, '--json'];
  const capped = await runAssay([...args, '--max-cost', '$0.004'], env);
  assert.equal(capped.code, 130, capped.stderr);
  assert.match(capped.stderr, /warning: stopped: spent \$0\.00\d+ of --max-cost \$0\.004/);
  const summary = JSON.parse(capped.stdout) as { run: string; status: string };
  assert.equal(summary.status, 'interrupted');
  const resumed = await runAssay(['resume', summary.run, '--max-cost', '1', '--db', db, '--json'], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal((JSON.parse(resumed.stdout) as { status: string }).status, 'finished');
  const bad = await runAssay([...args, '--max-cost', 'lots'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--max-cost must be an amount of USD above 0, e\.g\. 2\.50, got "lots"/);
});
