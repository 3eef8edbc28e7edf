import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { runAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** MetaTool runs: without its data these are skipped, saying how to get it. */
const skip = needsData('metatool');

/**
 * A provider whose 401 body drives a terminal (sets the window title, clears the screen, reverses
 * the line, a C1 CSI): the run's stderr, `assay runs` and `assay show` show it with its controls
 * made visible and never emit ESC; the store and the exports keep its bytes exactly.
 */
const HOSTILE = 'bad key \x1b]0;title\x07\x1b[2J\u202eevil\u009b31m';
const ESC = '\x1b';

let server: FakeServer;
let dir: string;
let db: string;
const env = (): NodeJS.ProcessEnv => ({ ASSAY_DATA_DIR: testDataDir(), OPENAI_API_KEY: 'sk-test-0123456789' });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-terminal-'));
  db = join(dir, 'runs.db');
  server = await startFakeOpenAIServer({ faults: () => ({ type: 'status', status: 401, body: JSON.stringify({ error: { message: HOSTILE } }) }) });
});

after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const runArgs = (extra: readonly string[]): string[] => ['run', 'metatool/awareness', '--model', 'openai:fake', '--base-url', server.url, '--limit', '2', '--max-retries', '0', '--db', db, ...extra];

test("a provider's error with terminal controls: shown visible on the run's stderr, in runs and show; never an ESC", { skip }, async () => {
  const run = await runAssay(runArgs([]), env());
  assert.equal(run.code, 130, run.stderr);
  const runId = /^run (\S+):/m.exec(run.stderr)?.[1];
  assert.ok(runId, run.stderr);
  // The message is still there for the reader, its controls written out.
  const visible = 'bad key \\u001b]0;title\\u0007\\u001b[2J\\u202eevil\\u009b31m';
  assert.ok(run.stderr.includes(visible), run.stderr);
  assert.ok(!run.stderr.includes(ESC) && !run.stdout.includes(ESC), 'no ESC on the run’s output');

  const runs = await runAssay(['runs', '--db', db], env());
  assert.equal(runs.code, 0, runs.stderr);
  assert.ok(runs.stdout.includes(visible), runs.stdout);
  assert.ok(!runs.stdout.includes(ESC) && !runs.stderr.includes(ESC));

  const show = await runAssay(['show', runId, '--db', db], env());
  assert.equal(show.code, 0, show.stderr);
  assert.ok(show.stdout.includes(visible), show.stdout);
  assert.ok(!show.stdout.includes(ESC) && !show.stderr.includes(ESC));
  for (const text of [run.stderr, runs.stdout, show.stdout]) {
    assert.ok(!/[\u0080-\u009f\u202a-\u202e]/.test(text), 'no C1 control, no bidi override');
  }

  // `--json` stays JSON and carries the message's exact value.
  const json = await runAssay(['show', runId, '--db', db, '--json'], env());
  assert.ok(!json.stdout.includes(ESC));
  const summary = JSON.parse(json.stdout) as { fail_fast?: { message: string }[] };
  assert.ok(summary.fail_fast?.[0]?.message.includes(HOSTILE), json.stdout);
});

test('exports keep the stored bytes of the error exactly', { skip }, async () => {
  const run = await runAssay(runArgs(['--no-fail-fast', '--json']), env());
  assert.ok(!run.stderr.includes(ESC), run.stderr);
  const runId = (JSON.parse(run.stdout) as { run: string }).run;
  const store = await openSqliteStore(db);
  let stored: string[];
  try {
    stored = (await store.results(runId)).map((r) => `${r.error?.kind}: ${r.error?.message}`);
  } finally {
    await store.close();
  }
  assert.equal(stored.length, 2);
  for (const message of stored) assert.ok(message.includes(HOSTILE), message);

  const jsonl = await runAssay(['export', runId, '--db', db], env());
  assert.equal(jsonl.code, 0, jsonl.stderr);
  const rows = jsonl.stdout.trim().split('\n').map((line) => JSON.parse(line) as { error: string });
  assert.deepEqual(rows.map((r) => r.error).sort(), [...stored].sort());

  const out = join(dir, 'rows.tsv');
  const tsv = await runAssay(['export', runId, '--db', db, '--format', 'tsv', '-o', out], env());
  assert.equal(tsv.code, 0, tsv.stderr);
  const file = readFileSync(out, 'utf8');
  for (const message of stored) assert.ok(file.includes(message), 'the TSV holds the stored message byte for byte');

  const csv = await runAssay(['export', runId, '--db', db, '--format', 'csv'], env());
  assert.ok(csv.stdout.includes(HOSTILE), 'the CSV on a pipe holds the stored bytes');
});
