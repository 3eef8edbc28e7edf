import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { sha256 } from '../../src/core/index.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { runAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

/** What metatool/similar reads: the copy holds only these (the shared data dir is never written). */
const FILES = ['metatool/data/all_clean_data.csv', 'metatool/plugin_des.json', 'metatool/big_tool_des.json', 'metatool/plugin_info.json', 'metatool/derived/tool_neighbors_top20.json'];
const CHANGED = 'metatool/plugin_des.json';
const PINNED = 'c446ade5acfb';

let server: FakeServer;
let dir: string;
let dataDir: string;
let changedSha: string;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'assay-modified-'));
  dataDir = join(dir, 'datasets');
  for (const file of FILES) {
    const to = join(dataDir, ...file.split('/'));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(testDataDir(), ...file.split('/')), to);
  }
  // One byte of one tool description: the file still parses and validates, only its sha256 tells.
  const path = join(dataDir, ...CHANGED.split('/'));
  const bytes = readFileSync(path);
  const at = bytes.indexOf('": "') + 6;
  bytes[at] = (bytes[at] as number) ^ 0x20; // flips a letter's case
  writeFileSync(path, bytes);
  changedSha = sha256(bytes);
  server = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }) });
});

after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const runArgs = (db: string): string[] => ['run', 'metatool/similar', '--model', 'openai:fake-model', '--base-url', server.url, '--per-tool', '1', '--limit', '4', '--data-dir', dataDir, '--no-download', '--db', db];

test('a built-in data file with one byte changed is refused before anything is recorded or called: exit 2, the file and both sums named', { skip }, async () => {
  const db = join(dir, 'refused.db');
  const requests = server.requestCount;
  const refused = await runAssay(runArgs(db));
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, new RegExp(`metatool/plugin_des\\.json \\(pinned ${PINNED}…, read ${changedSha.slice(0, 12)}…\\)`));
  assert.match(refused.stderr, /--allow-modified-data/);
  assert.equal(server.requestCount, requests, 'no model was called');
  const runs = await runAssay(['runs', '--db', db, '--json']);
  assert.deepEqual(JSON.parse(runs.stdout), [], 'no run was recorded');
});

test('--allow-modified-data runs anyway; the run records the file and its summary, show and export say "data modified"', { skip }, async () => {
  const db = join(dir, 'allowed.db');
  const line = new RegExp(`data modified: metatool/plugin_des\\.json \\(pinned ${PINNED}…, read ${changedSha.slice(0, 12)}…\\)`);
  const ran = await runAssay([...runArgs(db), '--allow-modified-data']);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stdout, line);
  const [run] = JSON.parse((await runAssay(['runs', '--db', db, '--json'])).stdout) as { id: string; engine: { modifiedData?: { file: string; pinned: string; actual: string }[] }; datasetChecksums: Record<string, string> }[];
  assert.ok(run);
  const recorded = run.engine.modifiedData ?? [];
  assert.deepEqual(recorded.map((m) => [m.file, m.pinned.slice(0, 12), m.actual]), [[CHANGED, PINNED, changedSha]]);
  assert.equal(run.datasetChecksums[CHANGED], changedSha);

  const shown = await runAssay(['show', run.id, '--db', db]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, line);
  const json = JSON.parse((await runAssay(['show', run.id, '--db', db, '--json'])).stdout) as { modified_data?: { file: string; actual: string }[] };
  assert.deepEqual(json.modified_data?.map((m) => [m.file, m.actual]), [[CHANGED, changedSha]]);
  const exported = await runAssay(['export', run.id, '--db', db]);
  assert.match(exported.stderr, line);
  const rows = exported.stdout.trim().split('\n').map((l) => JSON.parse(l) as { data_modified?: string });
  assert.equal(rows.length, 4);
  assert.ok(rows.every((r) => r.data_modified?.startsWith(`${CHANGED} (pinned ${PINNED}…`)));

  // Resumed, the recorded modification is not refused again (and nothing is left to call).
  const resumed = await runAssay(['resume', run.id, '--db', db]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stdout, line);
});

test('a run on the pinned data records and shows no "data modified"', { skip }, async () => {
  const db = join(dir, 'pinned.db');
  const ran = await runAssay(['run', 'metatool/similar', '--model', 'openai:fake-model', '--base-url', server.url, '--per-tool', '1', '--limit', '2', '--data-dir', testDataDir(), '--no-download', '--db', db, '--json']);
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal((JSON.parse(ran.stdout) as { modified_data?: unknown }).modified_data, undefined);
});
