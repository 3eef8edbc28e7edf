import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { copyRuns, type CopyOutcome } from '../../src/store/copy/copy-runs.js';
import { openStore } from '../../src/store/open-store.js';
import { ScratchSchemas, TEST_POSTGRES_URL } from '../../src/store/postgres/test-support/scratch-schemas.js';
import { makeRun, samples } from '../../src/store/test-support/store-contract.js';
import { startFakeOpenAIServer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { runAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { answerSummariesRequest } from '../../src/testing/summaries-answerer.js';
import { testDataDir } from '../../src/testing/test-data.js';

/**
 * `assay migrate` end to end (`npm run test:services`): runs made by the CLI in SQLite — a
 * baseline MetaTool run, a MetaTool run over HTTP (cached calls whose messages are the sample's),
 * a judged multi-step summaries run with human reviews — copied SQLite → PostgreSQL → a fresh
 * SQLite, and `show --json` and `report --json` read the same from all three.
 */
const schemas = new ScratchSchemas();
const env = { ASSAY_DATA_DIR: testDataDir() };
let server: FakeServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-migrate-e2e-'));
  mkdirSync(join(dir, 'articles'));
  const articles = ['The bridge opened on Monday after two years of work. It cost four million dollars.', 'A school opened in May with twelve classrooms. Parents welcomed it.', 'The home team won the final on Sunday. The weather was cold.'];
  articles.forEach((text, i) => writeFileSync(join(dir, 'articles', `${i}.txt`), `Title ${i}\n\n${text}`));
  server = await startFakeOpenAIServer({
    latencyMs: 1,
    respond: (body: FakeChatRequestBody, ctx) => (body.model === 'judge' || body.model === 'writer' ? answerSummariesRequest(body) : { text: answerMetaToolPrompt(ctx.key) }),
  });
});

after(async () => {
  await server.close();
  await schemas.dropAll();
  rmSync(dir, { recursive: true, force: true });
});

async function assay(args: readonly string[], expectedCode = 0): Promise<CliResult> {
  const result = await runAssay(args, env);
  assert.equal(result.code, expectedCode, `assay ${args.join(' ')}\n${result.stderr}${result.stdout}`);
  return result;
}

/** The run lines of a migrate's output: id → [counts and checksum, status]. */
function migrated(stdout: string): Map<string, { counts: Record<string, number>; checksum: string; status: string }> {
  const runs = new Map<string, { counts: Record<string, number>; checksum: string; status: string }>();
  for (const line of stdout.trim().split('\n').slice(0, -1)) {
    const match = /^(\S+) {2}samples (\d+) {2}calls (\d+) {2}results (\d+) {2}reviews (\d+) {2}sha256 ([0-9a-f]{64}) {2}(.*)$/.exec(line);
    assert.ok(match, line);
    const [, id, samples, calls, results, reviews, checksum, status] = match;
    runs.set(id as string, { counts: { samples: Number(samples), calls: Number(calls), results: Number(results), reviews: Number(reviews) }, checksum: checksum as string, status: status as string });
  }
  return runs;
}

test('runs copied SQLite → PostgreSQL → SQLite read the same everywhere; a rerun finds them there; a tampered row is caught', async () => {
  const source = join(dir, 'source.db');
  const { url: pg, schema } = await schemas.create();
  const copy = join(dir, 'copy.db');

  // Three runs in SQLite, made by the CLI.
  const baseline = JSON.parse((await assay(['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '40', '--seed', '3', '--json', '--db', source])).stdout) as { run: string };
  const httpBefore = server.requests.length;
  const overHttp = JSON.parse((await assay(['run', 'metatool/similar', '-m', 'openai:fake-model', '--base-url', server.url, '--per-tool', '1', '--limit', '30', '--seed', '4', '--json', '--db', source])).stdout) as { run: string };
  const metatoolRequests = server.requests.length - httpBefore;
  const judgedBefore = server.requests.length;
  const judged = JSON.parse((await assay(['run', 'summaries/alignment', '--articles', join(dir, 'articles'), '-m', 'openai:writer', '--judge', 'openai:judge', '--base-url', server.url, '--coverage-questions', '2', '--json', '--db', source])).stdout) as { run: string };
  const judgedRequests = server.requests.length - judgedBefore;
  const judgedSamples = JSON.parse((await assay(['export', judged.run, '--db', source])).stdout.trim().split('\n')[0] as string) as { sample_id: string };
  writeFileSync(join(dir, 'reviewed.csv'), `item,verdict,note\n${judgedSamples.sample_id},fail,"a reviewer disagrees, with ""quotes"""\n`);
  await assay(['review', judged.run, '--apply', join(dir, 'reviewed.csv'), '--db', source]);
  const ids = [baseline.run, overHttp.run, judged.run];

  // SQLite → PostgreSQL, in pages of 7 samples (every run spans several).
  const first = await assay(['migrate', '--from', source, '--to', pg, '--page-size', '7']);
  const toPg = migrated(first.stdout);
  assert.deepEqual([...toPg.keys()], ids, 'oldest first');
  assert.ok([...toPg.values()].every((r) => r.status === 'copied'), first.stdout);
  assert.match(first.stdout, /\n3 copied, 0 already there, 0 refused, 0 mismatched, 0 failed \(from .*source\.db to postgres:\/\/postgres@127\.0\.0\.1:5432\/test/);
  assert.match(first.stderr, new RegExp(`migrate: ${baseline.run}: copying, 35 samples so far`), 'progress on stderr');
  // Counts checked by hand against what made the runs: one result per sample and model; one call
  // per request the server answered (no faults, no cache hits); a baseline call per sample.
  assert.deepEqual(toPg.get(baseline.run)?.counts, { samples: 40, calls: 40, results: 40, reviews: 0 });
  assert.deepEqual(toPg.get(overHttp.run)?.counts, { samples: 30, calls: metatoolRequests, results: 30, reviews: 0 });
  assert.equal(metatoolRequests, 30);
  assert.deepEqual(toPg.get(judged.run)?.counts, { samples: 3, calls: judgedRequests, results: 3, reviews: 1 });
  assert.ok(judgedRequests > 3 * 4, `writer, claims, verdicts and coverage calls per article: ${judgedRequests}`);
  const rows = async (table: string): Promise<number> => (await schemas.query(`SELECT count(*)::int AS n FROM ${schema}.${table}`)).rows[0]?.n as number;
  assert.deepEqual([await rows('runs'), await rows('samples'), await rows('calls'), await rows('results'), await rows('reviews'), await rows('run_leases')], [3, 73, 70 + judgedRequests, 73, 1, 0]);

  // PostgreSQL → a fresh SQLite file: the same checksums.
  const second = await assay(['migrate', '--from', pg, '--to', `sqlite:${copy}`]);
  const toCopy = migrated(second.stdout);
  for (const id of ids) assert.deepEqual(toCopy.get(id), toPg.get(id), id);

  // What show and report print is the same from all three stores.
  for (const id of ids) {
    const shown = await Promise.all([source, pg, copy].map(async (db) => (await assay(['show', id, '--json', '--db', db])).stdout));
    assert.equal(shown[1], shown[0], `show ${id} on PostgreSQL`);
    assert.equal(shown[2], shown[0], `show ${id} on the copy`);
    // All but when it was generated; compared as values (a backend may order a stored request's keys its own way).
    const reports = await Promise.all([source, pg, copy].map(async (db) => ({ ...(JSON.parse((await assay(['report', id, '--json', '--details', 'all', '--db', db])).stdout) as object), generatedAt: undefined })));
    assert.deepEqual(reports[1], reports[0], `report ${id} on PostgreSQL`);
    assert.deepEqual(reports[2], reports[0], `report ${id} on the copy`);
  }
  const reviewed = JSON.parse((await assay(['show', judged.run, '--json', '--db', copy])).stdout) as { models: Record<string, { reviewed?: { reviewed: number } }> };
  assert.equal(reviewed.models['openai:writer']?.reviewed?.reviewed, 1, 'the human review came along');

  // The copied calls answer the call cache: the same run against PostgreSQL calls nothing.
  const beforeCached = server.requests.length;
  await assay(['run', 'metatool/similar', '-m', 'openai:fake-model', '--base-url', server.url, '--per-tool', '1', '--limit', '30', '--seed', '4', '--json', '--db', pg]);
  assert.equal(server.requests.length, beforeCached, 'every answer came from the copied calls');

  // Again: everything is already there (the run just made in PostgreSQL is not the source's).
  const again = migrated((await assay(['migrate', '--from', source, '--to', pg])).stdout);
  assert.deepEqual([...again.values()].map((r) => r.status), ['already there', 'already there', 'already there']);
  assert.deepEqual([...again.values()].map((r) => r.checksum), [...toPg.values()].map((r) => r.checksum));

  // One row changed in the target: found, refused (exit 1), and --replace puts the original back.
  await schemas.query(`UPDATE ${schema}.results SET latency_ms = latency_ms + 1 WHERE ctid = (SELECT ctid FROM ${schema}.results WHERE run_id = $1 LIMIT 1)`, [overHttp.run]);
  const tampered = await assay(['migrate', '--from', source, '--to', pg, '--run', overHttp.run.slice(0, 17)], 1);
  assert.match(tampered.stdout, new RegExp(`^${overHttp.run} {2}samples 30 .* refused: the target holds run ${overHttp.run} with other content \\(results: 30 in both, contents differ\\); --replace overwrites it\\n`));
  assert.match(tampered.stdout, /0 copied, 0 already there, 1 refused/);
  const replaced = migrated((await assay(['migrate', '--from', source, '--to', pg, '--run', overHttp.run, '--replace'])).stdout);
  assert.equal(replaced.get(overHttp.run)?.status, 'copied (replaced the target’s)');
  assert.equal(replaced.get(overHttp.run)?.checksum, toPg.get(overHttp.run)?.checksum);

  // The copy can be rescored and resumed like the original.
  const rescored = await assay(['rescore', judged.run, '--json', '--db', copy]);
  assert.match(rescored.stdout, /"rescore":\{"outputs":3,"changed":0/);
});

test('bad stores: one line, exit 2, nothing written', async () => {
  const source = join(dir, 'errors.db');
  await assay(['run', 'metatool/similar', '-m', 'baseline:lexical', '--per-tool', '1', '--limit', '5', '--db', source]);
  const oneLine = async (args: string[], pattern: RegExp): Promise<void> => {
    const result = await assay(['migrate', ...args], 2);
    assert.match(result.stderr, pattern);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.equal(result.stdout, '');
  };
  await oneLine(['--from', source, '--to', `sqlite:${source}`], /^assay: --from and --to are the same store \(.*errors\.db\); give another store to copy to$/m);
  await oneLine(['--from', join(dir, 'nope.db'), '--to', join(dir, 'never.db')], /^assay: no SQLite store at .*nope\.db to copy from \(--from\)/m);
  const unreachable = new URL(TEST_POSTGRES_URL);
  unreachable.port = '1';
  unreachable.password = 's3cret';
  await oneLine(['--from', source, '--to', unreachable.toString()], /^assay: cannot open PostgreSQL store postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test: .*ECONNREFUSED/m);
  await oneLine(['--from', source, '--to', 'mysql://db/x'], /unknown kind of store "mysql:"/);
  const newer = join(dir, 'newer.db');
  const db = new Database(newer);
  db.pragma('user_version = 999');
  db.close();
  await oneLine(['--from', newer, '--to', join(dir, 'never.db')], /newer\.db.*999/);
  await oneLine(['--from', source, '--to', join(dir, 'never.db'), '--run', 'no-such-run'], /^assay: no run no-such-run in the store to copy from/m);
});

test('what PostgreSQL keeps otherwise is caught: a time without milliseconds reads back changed (removed), a NUL in a note is refused (rolled back)', async () => {
  const source = await openStore(join(dir, 'odd.db'));
  const { url, schema } = await schemas.create();
  const target = await openStore(url);
  try {
    // SQLite keeps a time as the text it was given; PostgreSQL as a timestamp, read back with milliseconds.
    await source.createRun(makeRun({ id: 'odd-time', status: 'finished', createdAt: '2026-03-01T12:00:00Z' }), samples);
    await source.createRun(makeRun({ id: 'nul-note', status: 'finished', createdAt: '2026-03-02T12:00:00.000Z' }), samples);
    await source.saveReviews([{ runId: 'nul-note', sampleId: 'q-alpha', modelId: 'baseline:lexical', verdict: true, note: 'ok\u0000', source: 'r.csv', reviewedAt: '2026-03-02T13:00:00.000Z' }]);
    const outcomes: CopyOutcome[] = [];
    for await (const outcome of copyRuns(source, target)) outcomes.push(outcome);
    const [odd, nul] = outcomes;
    assert.ok(odd?.status === 'mismatch', JSON.stringify(odd));
    assert.deepEqual(odd.parts, ['run']);
    assert.ok(nul?.status === 'failed', JSON.stringify(nul));
    assert.match(nul.reason, /^the target refused it, nothing of it was kept: .*0x00/);
    for (const table of ['runs', 'samples', 'calls', 'results', 'reviews']) {
      assert.equal((await schemas.query(`SELECT count(*)::int AS n FROM ${schema}.${table}`)).rows[0]?.n, 0, `${table}: nothing left behind`);
    }
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
});
