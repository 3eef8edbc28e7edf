import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { resumeRun, startRun, summarizeStoredRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { recordedStops } from '../../src/store/run-stops.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { startFakeOpenAIServer, type Fault, type FakeServer, type FakeRequestContext } from '../../src/testing/fake-openai-server.js';
import { runAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const dataDir = testDataDir();
const SAMPLES = 12;
const GOOD_KEY = 'sk-good-0123456789';
const BAD_KEY = 'sk-wrong-9876543210';

/**
 * A server that plays the provider: 401 unless the request carries GOOD_KEY (echoing the key it
 * got, as OpenAI does, so the test sees it redacted), 404 model_not_found for `missing-model`,
 * and 400 with one and the same message for `picky-model` (a parameter it does not take).
 */
function provider(ctx: FakeRequestContext): Fault | undefined {
  const auth = ctx.headers.authorization;
  if (auth !== `Bearer ${GOOD_KEY}`) {
    const message = `Incorrect API key provided: ${(auth ?? '').replace('Bearer ', '')}. You can find your API key at https://platform.openai.com/account/api-keys.`;
    return { type: 'status', status: 401, body: JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }) };
  }
  if (ctx.body.model === 'judge' && judgeRefused) {
    return { type: 'status', status: 403, body: JSON.stringify({ error: { message: 'You are not allowed to sample from this model', type: 'invalid_request_error', param: null, code: null } }) };
  }
  if (ctx.body.model === 'missing-model') {
    return { type: 'status', status: 404, body: JSON.stringify({ error: { message: 'The model `missing-model` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } }) };
  }
  // Answers its first request, then resets every connection: a network that fails after the endpoint was reached.
  if (ctx.body.model === 'flaky-model' && flakyCalls++ > 0) return { type: 'reset' };
  if (ctx.body.model === 'picky-model') {
    return { type: 'status', status: 400, body: JSON.stringify({ error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } }) };
  }
  return undefined;
}

let server: FakeServer;
let dir: string;
/** Whether `openai:judge` is refused (403): a judge the account may not use, until the test "fixes" it. */
let judgeRefused = false;
/** Requests `openai:flaky-model` got so far. */
let flakyCalls = 0;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-failfast-'));
  server = await startFakeOpenAIServer({
    // The model under test of the FunctionChat run answers in text (so the judge grades it); the judge fails it.
    respond: (body, ctx) => (body.model === 'judge' ? { text: 'no call was made\nfail' } : body.model === 'tested' ? { text: 'no call' } : { text: answerMetaToolPrompt(ctx.key) }),
    faults: provider,
  });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const spec = (models: string[], concurrency: number): RunSpec => ({
  task: 'metatool/similar',
  models,
  seed: 5,
  options: { perTool: 1, limit: SAMPLES },
  dataDir,
  engine: { concurrency, timeoutMs: 60_000, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
});

/** Requests the server got for a model since `from`. */
const requestsFor = (model: string, from: number): number => server.requests.slice(from).filter((r) => (r.body as { model?: string }).model === model).length;

test('a wrong key stops the run at the first 401: at most --concurrency calls, none stored as a result; resume with the right key calls each sample once', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'auth.db'));
  const CONCURRENCY = 3;
  const before = server.requestCount;
  const warnings: string[] = [];
  const stopped = await startRun(spec(['openai:fake-model'], CONCURRENCY), { store, secrets: { openaiApiKey: BAD_KEY }, onWarning: (w) => warnings.push(w) });
  assert.equal(stopped.status, 'interrupted');
  // The bound: the auth stop comes at the first 401 (STOP_AFTER.auth = 1); the calls already in
  // flight then (at most CONCURRENCY - 1 others) finish, and no worker starts another. So
  // 1 + (CONCURRENCY - 1) = CONCURRENCY calls at most, whatever order they come back in.
  const calls = await store.calls(stopped.run);
  assert.ok(calls.length >= 1 && calls.length <= CONCURRENCY, `${calls.length} calls`);
  assert.equal(server.requestCount - before, calls.length, 'the ledger holds every request the server saw');
  assert.ok(calls.every((c) => c.error?.kind === 'auth' && c.attempt === 1), 'a 401 is not retried');
  const counts = stopped.models['openai:fake-model']?.counts;
  assert.equal(counts?.errors, 0, 'no sample ends in an error that only --retry-errors would call again');
  assert.equal(counts?.pending, SAMPLES);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', /^stopped openai:fake-model after 1 auth error — the provider refuses the credentials: HTTP 401 from POST .*Incorrect API key provided/);
  assert.match(warnings[0] ?? '', new RegExp(`then assay resume ${stopped.run}$`));
  assert.ok(!warnings[0]?.includes(BAD_KEY), 'the key is redacted from the message');
  // Kept with the run, not only said on stderr: the summary read back from the store alone says it too.
  const stored = await summarizeStoredRun(store, stopped.run);
  assert.deepEqual(stored.fail_fast?.map((s) => [s.actor, s.role, s.kind, s.count, s.advice]), [['openai:fake-model', 'test', 'auth', 1, warnings[0]]]);
  assert.deepEqual(stopped.fail_fast, stored.fail_fast, 'the summary of the run itself says it the same way');

  // Resumed with the key still wrong: stopped again at once.
  const again = await resumeRun(stopped.run, { engine: { concurrency: 1 } }, { store, secrets: { openaiApiKey: BAD_KEY } });
  assert.equal(again.status, 'interrupted');
  assert.equal((await store.calls(stopped.run)).length, calls.length + 1, 'with one worker, exactly one more call');
  assert.equal((await summarizeStoredRun(store, stopped.run)).fail_fast?.length, 1, 'the second stop replaces the first');

  // With the right key the run goes on and finishes; every sample answered exactly once.
  const mark = server.requests.length;
  const finished = await resumeRun(stopped.run, {}, { store, secrets: { openaiApiKey: GOOD_KEY } });
  assert.equal(finished.status, 'finished');
  assert.equal(finished.models['openai:fake-model']?.counts.done, SAMPLES);
  const answered = server.requests.slice(mark).filter((r) => r.outcome === 'answered');
  assert.equal(answered.length, SAMPLES);
  assert.equal(new Set(answered.map((r) => r.key)).size, SAMPLES, 'no sample was called twice');
  const ok = (await store.calls(stopped.run)).filter((c) => c.output !== null);
  assert.equal(ok.length, SAMPLES);
  assert.equal(new Set(ok.map((c) => c.sampleId)).size, SAMPLES);
  assert.equal((await summarizeStoredRun(store, stopped.run)).fail_fast, undefined, 'a finished run has nothing left to fix');
  assert.deepEqual(recordedStops((await store.getRun(stopped.run))!), []);
  await store.close();
});

test('a model that does not exist stops only itself; a request shape refused 3 times alike stops its model after exactly 3 calls', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'models.db'));
  const mark = server.requests.length;
  const warnings: string[] = [];
  // One worker per model makes the counts exact: each stop comes before that model's next call.
  const summary = await startRun(spec(['openai:fake-model', 'openai:missing-model', 'openai:picky-model'], 1), { store, secrets: { openaiApiKey: GOOD_KEY }, onWarning: (w) => warnings.push(w) });
  assert.equal(summary.status, 'interrupted');
  assert.equal(summary.models['openai:fake-model']?.counts.done, SAMPLES, 'the good model is not stopped by the others');
  assert.equal(requestsFor('missing-model', mark), 1);
  assert.equal(requestsFor('picky-model', mark), 3);
  assert.equal(summary.models['openai:missing-model']?.counts.pending, SAMPLES);
  assert.equal(summary.models['openai:picky-model']?.counts.pending, SAMPLES);
  assert.equal(warnings.length, 2);
  assert.ok(warnings.some((w) => /^stopped openai:missing-model after 1 not-found error — the model \(or the endpoint\) does not exist: HTTP 404 .*does not exist/.test(w)), warnings.join('\n'));
  assert.ok(warnings.some((w) => /^stopped openai:picky-model after 3 identical bad-request errors in a row — .*Unsupported parameter/.test(w)), warnings.join('\n'));

  // --no-fail-fast: every sample is called and its error stored, as before fail-fast existed.
  const all = await startRun({ ...spec(['openai:missing-model'], 2), engine: { ...spec([], 2).engine, failFast: false } }, { store, secrets: { openaiApiKey: GOOD_KEY } });
  assert.equal(all.status, 'finished');
  assert.deepEqual(all.models['openai:missing-model']?.counts.errors_by_kind, { 'not-found': SAMPLES });
  await store.close();
});

test("a judge refused by the provider stops the run at its first 403; resume pays for no model call twice (the stopped sample's comes from the cache)", { skip: needsData('functionchat') }, async () => {
  const store = await openSqliteStore(join(dir, 'judge.db'));
  const LIMIT = 6;
  const judged: RunSpec = {
    task: 'functionchat/singlecall',
    models: ['openai:tested'],
    seed: 0,
    options: { limit: LIMIT },
    dataDir,
    engine: { concurrency: 1, timeoutMs: 60_000, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
    judge: { model: 'openai:judge', repeats: 1, format: 'text', maxParseRetries: 0, temperature: 0.1 },
  };
  const mark = server.requests.length;
  judgeRefused = true;
  const warnings: string[] = [];
  let runId = '';
  try {
    const stopped = await startRun(judged, { store, secrets: { openaiApiKey: GOOD_KEY }, onWarning: (w) => warnings.push(w) });
    runId = stopped.run;
    assert.equal(stopped.status, 'interrupted');
    // One worker: the first sample's model call, then its judge call, refused; nothing after.
    assert.equal(requestsFor('tested', mark), 1);
    assert.equal(requestsFor('judge', mark), 1);
    assert.equal(stopped.models['openai:tested']?.counts.pending, LIMIT);
    assert.match(warnings.join('\n'), /^stopped the judge openai:judge \(and with it the run\) after 1 auth error — .*HTTP 403/m);
    assert.equal((await store.calls(stopped.run)).length, 2, 'both calls are in the ledger, without a result');
  } finally {
    judgeRefused = false;
  }
  const finished = await resumeRun(runId, {}, { store, secrets: { openaiApiKey: GOOD_KEY } });
  assert.equal(finished.status, 'finished');
  assert.equal(finished.models['openai:tested']?.counts.done, LIMIT);
  assert.equal(requestsFor('tested', mark), LIMIT, 'each sample\'s model call was paid for once');
  await store.close();
});

test('assay run with a wrong key: exit 130, the reason and "assay resume" on stderr, the key never printed; assay resume with the right key finishes', { skip }, async () => {
  const db = join(dir, 'cli.db');
  const args = ['run', 'metatool/similar', '--model', 'openai:fake-model', '--base-url', server.url, '--per-tool', '1', '--limit', String(SAMPLES), '--seed', '5', '--concurrency', '1', '--db', db, '--json'];
  const mark = server.requests.length;
  const bad = await runAssay(args, { ASSAY_DATA_DIR: dataDir, OPENAI_API_KEY: BAD_KEY });
  assert.equal(bad.code, 130, bad.stderr);
  assert.equal(server.requests.length - mark, 1, 'one worker: exactly one call');
  assert.match(bad.stderr, /warning: stopped openai:fake-model after 1 auth error .*HTTP 401.*then assay resume \S+/);
  assert.doesNotMatch(bad.stderr + bad.stdout, /--retry-errors/);
  assert.ok(!(bad.stderr + bad.stdout).includes(BAD_KEY), 'the key is never printed');
  const run = (JSON.parse(bad.stdout) as { run: string; status: string }).run;

  // Coming back later: show (text and --json) and runs say why the run is interrupted and what to do.
  const why = new RegExp(`stopped openai:fake-model after 1 auth error — the provider refuses the credentials: HTTP 401.*Incorrect API key provided.*fix the API key .*then assay resume ${run}`);
  const show = await runAssay(['show', run, '--db', db]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /status interrupted/);
  assert.match(show.stdout, why);
  const shown = JSON.parse((await runAssay(['show', run, '--db', db, '--json'])).stdout) as { fail_fast?: { actor: string; kind: string; message: string; advice: string }[] };
  assert.deepEqual(shown.fail_fast?.map((s) => [s.actor, s.kind]), [['openai:fake-model', 'auth']]);
  assert.match(shown.fail_fast?.[0]?.advice ?? '', why);
  const runs = await runAssay(['runs', '--db', db]);
  assert.match(runs.stdout, new RegExp(`^${run}: ${why.source}`, 'm'));
  assert.ok(![show.stdout, runs.stdout, JSON.stringify(shown)].some((out) => out.includes(BAD_KEY)), 'the key is never printed');

  const good = await runAssay(['resume', run, '--db', db, '--json'], { ASSAY_DATA_DIR: dataDir, OPENAI_API_KEY: GOOD_KEY });
  assert.equal(good.code, 0, good.stderr);
  const summary = JSON.parse(good.stdout) as { status: string; models: Record<string, { counts: { done: number } }> };
  assert.equal(summary.status, 'finished');
  assert.equal(summary.models['openai:fake-model']?.counts.done, SAMPLES);
  assert.doesNotMatch((await runAssay(['show', run, '--db', db])).stdout, /stopped/, 'finished: nothing left to fix');
  assert.doesNotMatch((await runAssay(['runs', '--db', db])).stdout, /stopped/);
});

/** A loopback port nothing listens on (bound, then closed): connections to it are refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test('assay run at a port nothing listens on: stopped after 3 identical network errors (exit 130), with the URL and what to check; resume with the right --base-url finishes', { skip }, async () => {
  const db = join(dir, 'refused.db');
  const wrong = `http://127.0.0.1:${await closedPort()}/v1`;
  const args = ['run', 'metatool/similar', '--model', 'openai:fake-model', '--base-url', wrong, '--per-tool', '1', '--limit', String(SAMPLES), '--seed', '5', '--concurrency', '1', '--max-retries', '1', '--db', db, '--json'];
  const refused = await runAssay(args, { ASSAY_DATA_DIR: dataDir, OPENAI_API_KEY: GOOD_KEY });
  assert.equal(refused.code, 130, refused.stderr);
  assert.match(refused.stderr, new RegExp(`warning: stopped openai:fake-model after 3 identical network errors in a row — nothing has answered at this endpoint yet in this session: cannot complete POST ${wrong.replace(/\./g, '\\.')}/chat/completions: .*ECONNREFUSED.*check the base URL \\(--base-url, OPENAI_BASE_URL.*then assay resume \\S+`));
  const summary = JSON.parse(refused.stdout) as { run: string; models: Record<string, { counts: { pending: number; errors: number } }> };
  assert.equal(summary.models['openai:fake-model']?.counts.pending, SAMPLES, 'no sample ends in an error: the 3 of the streak are left for the resume');
  assert.equal(summary.models['openai:fake-model']?.counts.errors, 0);
  const store = await openSqliteStore(db);
  const calls = await store.calls(summary.run);
  await store.close();
  assert.equal(calls.length, 6, 'one worker: 3 samples, each tried twice (--max-retries 1), then nothing');
  assert.ok(calls.every((c) => c.error?.kind === 'network'));

  const mark = server.requests.length;
  const resumed = await runAssay(['resume', summary.run, '--base-url', server.url, '--db', db, '--json'], { ASSAY_DATA_DIR: dataDir, OPENAI_API_KEY: GOOD_KEY });
  assert.equal(resumed.code, 0, resumed.stderr);
  const finished = JSON.parse(resumed.stdout) as { status: string; models: Record<string, { counts: { done: number } }> };
  assert.equal(finished.status, 'finished');
  assert.equal(finished.models['openai:fake-model']?.counts.done, SAMPLES);
  assert.equal(server.requests.length - mark, SAMPLES, 'every sample called once at the right endpoint');
});

test('network errors after the model has answered are not a setup problem: stored as errors, the run goes on to the end', { skip }, async () => {
  const store = await openSqliteStore(join(dir, 'flaky.db'));
  flakyCalls = 0;
  const warnings: string[] = [];
  const summary = await startRun(spec(['openai:flaky-model'], 1), { store, secrets: { openaiApiKey: GOOD_KEY }, onWarning: (w) => warnings.push(w) });
  assert.equal(summary.status, 'finished');
  assert.equal(summary.models['openai:flaky-model']?.counts.done, 1);
  assert.deepEqual(summary.models['openai:flaky-model']?.counts.errors_by_kind, { network: SAMPLES - 1 });
  assert.ok(!warnings.some((w) => w.startsWith('stopped')), warnings.join('\n'));
  await store.close();
});
