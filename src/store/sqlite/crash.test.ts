import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-crash-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLES = 500;
/** Enough saves to push the WAL past SQLite's auto-checkpoint (1000 pages), so a checkpoint may be cut too. */
const KILL_AFTER_LINES = 3000;

/**
 * The child: saves outcome i (one ~3 KB call plus the result of sample i mod SAMPLES, replacing its last)
 * forever, printing `saved i` only after the save's promise resolved. It never stops on its own
 * before the parent's SIGKILL (a safety cap ends it if the parent is gone).
 */
const childSource = (storeModuleUrl: string) => `
import { writeSync } from 'node:fs';
import { openSqliteStore } from ${JSON.stringify(storeModuleUrl)};
const [file, samples] = [process.argv[2], Number(process.argv[3])];
const store = await openSqliteStore(file);
// The pipe to the parent is non-blocking: when a loaded parent has not read it yet, writeSync
// throws EAGAIN. Wait a millisecond and write the rest, so a slow reader never fails the child.
const pause = new Int32Array(new SharedArrayBuffer(4));
function report(line) {
  const bytes = Buffer.from(line);
  for (let written = 0; written < bytes.length; ) {
    try {
      written += writeSync(1, bytes, written);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
const filler = 'x'.repeat(3000);
for (let i = 0; i < 1_000_000; i++) {
  const sampleId = 's' + (i % samples);
  const now = new Date().toISOString();
  const output = { text: 'answer ' + i, toolCalls: [], finishReason: { unified: 'stop' }, usage: { inputTokens: 700, outputTokens: 3 }, warnings: [] };
  await store.saveOutcome(
    [{ runId: 'crash', sampleId, modelId: 'm', role: 'test', attempt: i, cacheKey: 'key-' + i, request: { prompt: filler, i }, output, error: null, usage: output.usage, costUsd: 0.0001, latencyMs: 1, startedAt: now }],
    // An error result, replaced by the next save of its sample (as --retry-errors replaces one): a done result would be final.
    { runId: 'crash', sampleId, modelId: 'm', status: 'error', output: null, score: null, error: { kind: 'server', message: 'answer ' + i }, cached: false, attempts: i, latencyMs: 1, usage: output.usage, costUsd: 0.0001, finishedAt: now },
    { replaceError: true },
  );
  // writeSync: the line is in the pipe before the next save starts (process.stdout may queue it,
  // and this loop never yields to the event loop that would flush the queue).
  report('saved ' + i + '\\n');
}
`;

test('every outcome a killed (SIGKILL) process reported as saved is in the database, which is intact', async () => {
  const file = join(dir, 'crash.db');
  const setup = await openSqliteStore(file);
  await setup.createRun(
    {
      id: 'crash', task: 't', taskVersion: '1', status: 'running', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
      models: ['m'], settings: {}, seed: 1, options: {}, engine: {}, provenance: { datasetChecksums: {}, promptVersion: 'p', toolkitVersion: '0' }, events: [], judge: null,
    },
    Array.from({ length: SAMPLES }, (_, i) => ({ id: `s${i}`, input: [{ role: 'user' as const, content: `q${i}` }], target: null, metadata: {} })),
  );
  await setup.close();

  const script = join(dir, 'child.mjs');
  writeFileSync(script, childSource(new URL('./sqlite-store.js', import.meta.url).href));
  const child = spawn(process.execPath, [script, file, String(SAMPLES)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));

  // Watchdog: a broken store must fail this test, not hang it.
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 30_000);
  let maxReported = -1;
  let lines = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    const match = /^saved (\d+)$/.exec(line);
    assert.ok(match, `unexpected child output: ${line}`);
    maxReported = Number(match[1]);
    if (++lines === KILL_AFTER_LINES) child.kill('SIGKILL');
  }
  const signal = await exited;
  clearTimeout(watchdog);
  assert.equal(signal, 'SIGKILL', `the child ended on its own; stderr: ${stderr}`);
  assert.ok(lines >= KILL_AFTER_LINES, `only ${lines} saves reported before the watchdog; stderr: ${stderr}`);

  // Plain connection first: the integrity check must see the file as the crash left it
  // (opening a WAL database replays the committed frames of the -wal file, as SQLite always does).
  const raw = new Database(file);
  assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
  assert.deepEqual(raw.pragma('foreign_key_check'), []);
  // Saves are sequential, so what survived must be exactly attempts 0..n with n ≥ the last reported one:
  // no reported save lost, no hole, no torn transaction (a call without its result or the reverse).
  const { count, minAttempt, maxAttempt } = raw
    .prepare<[], { count: number; minAttempt: number; maxAttempt: number }>(
      "SELECT count(*) AS count, min(attempt) AS minAttempt, max(attempt) AS maxAttempt FROM calls WHERE run_id = 'crash'",
    )
    .get() ?? { count: 0, minAttempt: -1, maxAttempt: -1 };
  raw.close();
  assert.equal(minAttempt, 0);
  assert.ok(maxAttempt >= maxReported, `last reported save ${maxReported} but the database ends at ${maxAttempt}`);
  assert.equal(count, maxAttempt + 1);

  const store = await openSqliteStore(file);
  const results = await store.results('crash');
  assert.equal(results.length, SAMPLES); // 3000 saves over 500 samples: every sample has a row
  // Each sample's row holds its latest save: sample s has attempts = the largest i ≤ maxAttempt with i ≡ s (mod SAMPLES).
  for (const result of results) {
    const s = Number(result.sampleId.slice(1));
    const expected = maxAttempt - ((((maxAttempt - s) % SAMPLES) + SAMPLES) % SAMPLES);
    assert.equal(result.attempts, expected, `sample ${result.sampleId}`);
    assert.equal(result.error?.message, `answer ${expected}`);
  }
  await store.close();
});
