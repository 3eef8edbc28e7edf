import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { assay, linesOf, type CliResult } from '../../src/testing/cli-harness.js';

// `assay samples` and the replay preflight: a replay file is checked against the run's samples
// before the run is recorded or any other model is called, and the ids it needs can be listed
// for every task.

const work = mkdtempSync(path.join(tmpdir(), 'assay-preflight-e2e-'));
const baseEnv: NodeJS.ProcessEnv = {
  ASSAY_DATA_DIR: testDataDir(),
  XDG_CACHE_HOME: path.join(work, 'cache'),
  ASSAY_METATOOL_BASE_URL: 'http://127.0.0.1:9/unreachable/',
  ASSAY_FUNCTIONCHAT_BASE_URL: 'http://127.0.0.1:9/unreachable/',
};
const run = (args: readonly string[]): Promise<CliResult> => assay(args, baseEnv);
/** Without the benchmark data the tests that read it are skipped, saying how to get it. */
const skipMetaTool = needsData('metatool');
const skipFunctionChat = needsData('functionchat');

let server: FakeServer;
before(async () => {
  server = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }) });
});
after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

let files = 0;
const file = (lines: readonly string[]): string => {
  const name = path.join(work, `replay-${files++}.jsonl`);
  writeFileSync(name, lines.map((l) => `${l}\n`).join(''));
  return name;
};
let dbs = 0;
const freshDb = (): string => path.join(work, `db-${dbs++}`, 'assay.db');
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface SampleLine {
  id: string;
  input: Array<{ role: string; content: string }>;
  tools?: Array<{ name: string }>;
  target: unknown;
}
const sampleLines = (text: string): SampleLine[] => linesOf(text).map((l) => JSON.parse(l) as SampleLine);

async function runsIn(db: string): Promise<Array<{ id: string; status: string }>> {
  const runs = await run(['runs', '--json', '--db', db]);
  assert.equal(runs.code, 0, runs.stderr);
  return JSON.parse(runs.stdout) as Array<{ id: string; status: string }>;
}

function assertRefused(result: CliResult, expected: RegExp): void {
  assert.equal(result.code, 2, `exit 2 (stderr: ${result.stderr})`);
  const lines = linesOf(result.stderr);
  assert.equal(lines.length, 1, `one line on stderr, got:\n${result.stderr}`);
  assert.match(lines[0] as string, expected);
  assert.equal(result.stdout, '');
}

describe('assay samples', () => {
  const similar = ['metatool/similar', '--per-tool', '1', '--limit', '4', '--seed', '3'];

  test('a MetaTool task: one line per sample, the id then the query; --json has the full prompt and the gold', { skip: skipMetaTool }, async () => {
    const text = await run(['samples', ...similar]);
    assert.equal(text.code, 0, text.stderr);
    const lines = linesOf(text.stdout);
    assert.equal(lines.length, 4);
    const json = await run(['samples', ...similar, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const samples = sampleLines(json.stdout);
    assert.equal(samples.length, 4);
    samples.forEach((sample, i) => {
      const [id, ...preview] = (lines[i] as string).split(/\s{2,}/);
      assert.equal(id, sample.id);
      assert.match(sample.id, /^similar\/.+\/\d+$/);
      // The preview is the user's query, which the prompt contains; the prompt is much longer.
      const query = preview.join('  ').replace(/…$/, '');
      assert.ok(query.length > 5, `${sample.id}: a preview`);
      assert.equal(sample.input.length, 1);
      assert.ok(sample.input[0]?.content.replace(/\s+/g, ' ').includes(query), `${sample.id}: the query is in the prompt`);
      assert.equal(typeof sample.target, 'string');
      assert.ok(sample.input[0]?.content.includes(sample.target as string), `${sample.id}: the gold is among the candidates shown`);
    });
  });

  test('the same options give the samples a run uses; another seed shows other candidate orders', { skip: skipMetaTool }, async () => {
    const samples = sampleLines((await run(['samples', ...similar, '--json'])).stdout);
    const listed = samples.map((s) => s.id);
    const db = freshDb();
    const baseline = await run(['run', ...similar, '-m', 'baseline:lexical', '--json', '--db', db]);
    assert.equal(baseline.code, 0, baseline.stderr);
    const exported = linesOf((await run(['export', (JSON.parse(baseline.stdout) as { run: string }).run, '--db', db])).stdout).map((l) => (JSON.parse(l) as { sample_id: string }).sample_id);
    assert.deepEqual(listed, exported);
    const other = sampleLines((await run(['samples', 'metatool/similar', '--per-tool', '1', '--limit', '4', '--seed', '4', '--json'])).stdout);
    assert.notDeepEqual(other.map((s) => s.input), samples.map((s) => s.input));
  });

  test('a FunctionChat task (which no baseline can run): ids, the Korean query, the tools and the ground truth', { skip: skipFunctionChat }, async () => {
    const args = ['functionchat/singlecall', '--limit', '5'];
    const text = await run(['samples', ...args]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(linesOf(text.stdout)[0] as string, /^singlecall-1-exact\s{2,}현재 박스오피스 순위가 궁금해요$/);
    const samples = sampleLines((await run(['samples', ...args, '--json'])).stdout);
    assert.deepEqual(samples.map((s) => s.id), ['singlecall-1-exact', 'singlecall-1-4_random', 'singlecall-1-4_close', 'singlecall-1-8_random', 'singlecall-1-8_close']);
    for (const sample of samples) {
      assert.deepEqual(sample.input.map((m) => m.role), ['system', 'user']);
      assert.ok(sample.tools && sample.tools.some((t) => t.name === 'getTodayBoxOfficeRanking'), `${sample.id}: the called function is offered`);
      assert.deepEqual((sample.target as { groundTruth: unknown }).groundTruth, { kind: 'call', name: 'getTodayBoxOfficeRanking', rawArguments: '{}', arguments: {} });
    }
  });

  test('replay files made from samples --json run with no errors: MetaTool answered with the gold, FunctionChat with the ground-truth call', { skip: skipMetaTool || skipFunctionChat }, async () => {
    const db = freshDb();
    const metatool = sampleLines((await run(['samples', ...similar, '--json'])).stdout);
    const metatoolReplay = file(metatool.map((s) => JSON.stringify({ id: s.id, output: s.target })));
    const first = await run(['run', ...similar, '-m', `replay:${metatoolReplay}`, '--json', '--db', db]);
    assert.equal(first.code, 0, first.stderr);
    const one = JSON.parse(first.stdout) as { models: Record<string, { metrics: { csr: number }; counts: { done: number; errors: number } }> };
    assert.deepEqual(Object.values(one.models).map((m) => [m.counts.done, m.counts.errors, m.metrics.csr]), [[4, 0, 1]]);
    assert.doesNotMatch(first.stderr, /warning/);

    const args = ['functionchat/singlecall', '--limit', '5'];
    const functionchat = sampleLines((await run(['samples', ...args, '--json'])).stdout);
    const calls = functionchat.map((s) => {
      const truth = (s.target as { groundTruth: { name: string; rawArguments: string } }).groundTruth;
      return JSON.stringify({ id: s.id, message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: truth.name, arguments: truth.rawArguments } }] } });
    });
    const second = await run(['run', ...args, '-m', `replay:${file(calls)}`, '--exact-only', '--json', '--db', db]);
    assert.equal(second.code, 0, second.stderr);
    const two = JSON.parse(second.stdout) as { models: Record<string, { metrics: { pass: number; n: number }; counts: { errors: number } }> };
    assert.deepEqual(Object.values(two.models).map((m) => [m.metrics.pass, m.metrics.n, m.counts.errors]), [[5, 5, 0]], 'every ground-truth call passes by exact match');
  });

  test('bad input to samples: an unknown task, a count that is no plain integer', async () => {
    assertRefused(await run(['samples', 'metatool/nope']), /^assay: unknown task "metatool\/nope"/);
    assertRefused(await run(['samples', 'metatool/similar', '--seed', '1e3']), /^assay: --seed must be a non-negative integer, got "1e3"/);
  });
});

describe('a replay file is checked before the run is recorded', { skip: skipMetaTool }, () => {
  const selection = ['metatool/similar', '--per-tool', '1', '--limit', '5', '--seed', '3'];
  // A paid model beside the replay file: it must not be called when the file is refused.
  const paid = ['-m', 'openai:fake-model', '--base-url', () => server.url] as const;
  const paidArgs = (): string[] => paid.map((a) => (typeof a === 'function' ? a() : a));

  test('ids that match no sample: exit 2 naming the file and the first ids, no run recorded, no model called', async () => {
    const db = freshDb();
    const ids = ['similar/NoSuchTool/0', 'similar/Other/1', 'another/2', 'fourth', 'fifth'];
    const replay = file(ids.map((id) => JSON.stringify({ id, output: 'x' })));
    const requests = server.requestCount;
    const result = await run(['run', ...selection, '-m', `replay:${replay}`, ...paidArgs(), '--db', db]);
    assertRefused(
      result,
      new RegExp(`^assay: replay:${escape(replay)} matches none of the 5 samples of metatool/similar with seed 3: its 5 id\\(s\\) \\("similar/NoSuchTool/0", "similar/Other/1", "another/2" and 2 more\\) are not sample ids of this run; "assay samples metatool/similar --seed 3"`),
    );
    assert.equal(server.requestCount, requests, 'the paid model was not called');
    assert.deepEqual(await runsIn(db), [], 'no run was recorded');
  });

  test('an empty file (blank lines only): exit 2, no run recorded', async () => {
    const db = freshDb();
    const replay = file(['', '  ']);
    const result = await run(['run', ...selection, '-m', `replay:${replay}`, ...paidArgs(), '--db', db]);
    assertRefused(result, new RegExp(`^assay: replay:${escape(replay)} holds no outputs \\(the file is empty\\)`));
    assert.deepEqual(await runsIn(db), []);
  });

  test('a partial match runs, warning about the unknown ids and the missing outputs; resume checks the file again', async () => {
    const db = freshDb();
    const ids = sampleLines((await run(['samples', ...selection, '--json'])).stdout).map((s) => s.id);
    const replay = file([...ids.slice(0, 3).map((id) => JSON.stringify({ id, output: 'x' })), JSON.stringify({ id: 'stray', output: 'x' })]);
    const result = await run(['run', ...selection, '-m', `replay:${replay}`, '--json', '--db', db]);
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^warning: replay:.* has 1 output\(s\) for ids that are not samples of this run \("stray"\); they are ignored$/m);
    assert.match(result.stderr, new RegExp(`^warning: replay:.* has no output for 2 of the 5 samples to call \\(${ids.slice(3).map((id) => escape(JSON.stringify(id))).join(', ')}\\): they will end as missing-output errors`, 'm'));
    const runId = (JSON.parse(result.stdout) as { run: string }).run;
    const show = await run(['show', runId, '--db', db]);
    assert.match(show.stdout, /errors by kind: missing-output 2 — add the missing outputs to the replay file, then retry with: assay resume .* --retry-errors/);

    // The file replaced by one made for other samples: the resume is refused and the run left as it was.
    writeFileSync(replay, `${JSON.stringify({ id: 'similar/NoSuchTool/0', output: 'x' })}\n`);
    assertRefused(await run(['resume', runId, '--retry-errors', '--db', db]), /^assay: replay:.* matches none of the 5 samples of metatool\/similar/);
    assert.deepEqual((await runsIn(db)).map((r) => [r.id, r.status]), [[runId, 'finished']]);

    // The missing lines added: the resume calls only those two and the run ends without errors.
    writeFileSync(replay, ids.map((id) => `${JSON.stringify({ id, output: 'x' })}\n`).join(''));
    const resumed = await run(['resume', runId, '--retry-errors', '--json', '--db', db]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.doesNotMatch(resumed.stderr, /warning/);
    const counts = Object.values((JSON.parse(resumed.stdout) as { models: Record<string, { counts: { done: number; errors: number } }> }).models).map((m) => m.counts);
    assert.deepEqual(counts, [{ ...counts[0], done: 5, errors: 0 }]);
  });
});
