import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SHIPPED_HARM_RESOURCES_DIR } from '../../src/datasets/harm/index.js';
import { applyReviewFile } from '../../src/analysis/review.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody } from '../../src/testing/fake-openai-server.js';
import { harmRoles } from '../../src/testing/harm-roles.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { answerSummariesRequest } from '../../src/testing/summaries-answerer.js';
import { needsData, testDataDir, type TestDataset } from '../../src/testing/test-data.js';
import { packageRoot } from '../../src/version.js';

/**
 * `assay show`, `show --json` and every export format of four real runs — MetaTool (two models, a
 * formula-looking output), FunctionChat judged (exact calls, judged texts, a server error, a human
 * review), judged summaries and harm measurement (a simulated user, judge repeats) — made here
 * through loopback servers, each on a copy of its data that is deleted before anything is read
 * back: every command reads the store alone. Their output is compared byte for byte, by sha256 and
 * length, with outputs taken before `show` and the exports moved onto the RunReport view model (run
 * ids written as `<run>`, the test's folder as `<dir>`, the loopback port as `<port>`). Only the
 * sums are kept in the repository: the outputs quote the benchmarks' data, which is never copied
 * here. A differing output is written to a temporary file named in the failure, to be read.
 * `ASSAY_UPDATE_FIXTURES=1` rewrites the sums instead (only for a change meant to alter these
 * outputs; say so in the commit).
 */
const FIXTURES = join(packageRoot, 'test', 'fixtures', 'report-identity.json');
const UPDATE = process.env['ASSAY_UPDATE_FIXTURES'] === '1';
const sums = (existsSync(FIXTURES) ? JSON.parse(readFileSync(FIXTURES, 'utf8')) : {}) as Record<string, { sha256: string; bytes: number }>;
// One call at a time, no retries: which call answers from the cache, and so every count, is the same on every run.
const ENGINE = { concurrency: 1, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, failFast: false };
const ARTICLES: Record<string, string> = {
  'news/bridge.txt': 'Bridge opens\n\nThe mayor opened the bridge on Monday. It cost four million dollars. Crowds watched.',
  'news/school.txt': 'School opens\n\nA new school opened in May. It has twelve classrooms and a library.',
  'sport/final.txt': 'Final won\n\nThe home team won the final. The weather was cold all day.',
  'sport/race.txt': 'Race day\n\nRunners crossed the line at noon. =HYPERLINK("x") was painted on a sign.',
};

let dir: string;
let db: string;
const runs: Record<string, string> = {};

const lastUser = (body: FakeChatRequestBody): string => String([...body.messages].reverse().find((m) => m['role'] === 'user')?.['content'] ?? '');

async function runWith(spec: Omit<RunSpec, 'engine'>, respond: (body: FakeChatRequestBody) => FakeAnswer): Promise<string> {
  const server = await startFakeOpenAIServer({ respond });
  const store = await openSqliteStore(db);
  try {
    return (await startRun({ ...spec, engine: { ...ENGINE, openaiBaseURL: server.url } }, { store })).run;
  } finally {
    await store.close();
    await server.close();
  }
}

/** The benchmark data each kind of run reads (summaries and harm bring their own): without it, that kind is skipped. */
const DATA: Readonly<Record<string, TestDataset>> = { metatool: 'metatool', functionchat: 'functionchat' };
const skipOf = (kind: string): false | string => (DATA[kind] ? needsData(DATA[kind]) : false);

/** A MetaTool run on a copy of the data in `data`. */
async function makeMetaToolRun(data: string): Promise<void> {
  cpSync(join(testDataDir(), 'metatool'), join(data, 'metatool'), { recursive: true });
  let mtCalls = 0;
  runs['metatool'] = await runWith({ task: 'metatool/similar', models: ['openai:mt-a', 'openai:mt-b'], seed: 0, options: { limit: 8 }, dataDir: data }, (body) => {
    const answer = answerMetaToolPrompt(lastUser(body));
    // Every third answer of the second model opens with a formula: CSV/TSV cells must neutralize it.
    return { text: body.model === 'mt-b' && mtCalls++ % 3 === 0 ? `=SUM(1) ${answer}` : answer };
  });
}

/** A reviewed FunctionChat run on a copy of the data in `data`. */
async function makeFunctionChatRun(data: string): Promise<void> {
  cpSync(join(testDataDir(), 'functionchat'), join(data, 'functionchat'), { recursive: true });
  let fcCalls = 0;
  runs['functionchat'] = await runWith(
    {
      task: 'functionchat/singlecall',
      models: ['openai:fc'],
      seed: 0,
      options: { limit: 6 },
      dataDir: data,
      judge: { model: 'openai:judge', repeats: 1, format: 'text', maxParseRetries: 1, temperature: 0 },
    },
    (body) => {
      if (body.model === 'judge') return { text: `Reasoning.\n${String(body.messages.at(-1)?.content).includes('JUDGE-PASS') ? 'pass' : 'fail'}` };
      const i = fcCalls++;
      const tools = (body['tools'] as { function: { name: string } }[] | undefined) ?? [];
      if (i % 4 === 3) throw new Error('planned server error');
      if (i % 4 === 0 && tools[0]) return { toolCalls: [{ name: tools[0].function.name, arguments: '{"q":"x"}' }] };
      return { text: i % 4 === 1 ? 'JUDGE-PASS: done' : 'I cannot <b>do</b> that' };
    },
  );
  const store = await openSqliteStore(db);
  try {
    const fcSample = (await store.loadSamples(runs['functionchat']))[1];
    writeFileSync(join(dir, 'review.csv'), `item,verdict,note\n${fcSample?.id},fail,"too vague"\n`);
    await applyReviewFile(store, runs['functionchat'], join(dir, 'review.csv'));
  } finally {
    await store.close();
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-report-identity-'));
  db = join(dir, 'runs.db');
  const data = join(dir, 'data');
  if (!skipOf('metatool')) await makeMetaToolRun(data);
  if (!skipOf('functionchat')) await makeFunctionChatRun(data);

  const articles = join(dir, 'articles');
  for (const [id, text] of Object.entries(ARTICLES)) {
    mkdirSync(join(articles, id.split('/')[0] as string), { recursive: true });
    writeFileSync(join(articles, id), text);
  }
  runs['summaries'] = await runWith(
    {
      task: 'summaries/alignment',
      models: ['openai:writer-a', 'openai:writer-b'],
      seed: 0,
      options: { task: { articles, coverageQuestions: 2 } },
      dataDir: dir,
      judge: { model: 'openai:judge', repeats: 1, format: 'json', maxParseRetries: 1, temperature: 0 },
    },
    answerSummariesRequest,
  );

  const resource = join(dir, 'my-resource');
  cpSync(join(SHIPPED_HARM_RESOURCES_DIR, 'system-prompt-leakage'), resource, { recursive: true });
  runs['harm'] = await runWith(
    {
      task: `harm:${resource}`,
      models: ['openai:sut'],
      userModel: 'openai:user',
      judge: { model: 'openai:judge', repeats: 3, format: 'json', maxParseRetries: 1, temperature: 0 },
      seed: 5,
      options: {},
      dataDir: resource,
    },
    harmRoles(5),
  );

  // Nothing the runs were made from is left: every command below reads the store alone.
  for (const gone of [data, articles, resource]) rmSync(gone, { recursive: true, force: true });
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const COMMANDS: Readonly<Record<string, readonly string[]>> = {
  'show.txt': ['show'],
  'show.json': ['show', '--json'],
  'export.jsonl': ['export'],
  'export.csv': ['export', '-f', 'csv'],
  'export.tsv': ['export', '-f', 'tsv'],
};

for (const kind of ['metatool', 'functionchat', 'summaries', 'harm']) {
  test(`${kind}: show, show --json and every export format are byte-identical to the fixtures, with no data dir`, { skip: skipOf(kind) }, async () => {
    const run = runs[kind] as string;
    const commands = { ...COMMANDS, ...(kind === 'metatool' ? { 'export-model.csv': ['export', '-f', 'csv', '-m', 'openai:mt-b'] } : {}) };
    for (const [name, args] of Object.entries(commands)) {
      const [command, ...flags] = args;
      const result = await assay([command as string, run, ...flags, '--db', db]);
      assert.equal(result.code, 0, `${name}: ${result.stderr}`);
      const text = result.stdout.split(run).join('<run>').split(dir).join('<dir>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
      assert.ok(text.length > 0, name);
      const key = `${kind}.${name}`;
      const sum = { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
      if (UPDATE) {
        sums[key] = sum;
        writeFileSync(FIXTURES, `${JSON.stringify(sums, null, 2)}\n`);
        continue;
      }
      const expected = sums[key];
      assert.ok(expected, `no sum for ${key} in ${FIXTURES}: run with ASSAY_UPDATE_FIXTURES=1 on a build whose output is right`);
      if (sum.sha256 !== expected.sha256 || sum.bytes !== expected.bytes) {
        const kept = join(mkdtempSync(join(tmpdir(), 'assay-identity-')), key);
        writeFileSync(kept, text);
        assert.fail(`${key} differs from the output taken before (${sum.bytes} bytes against ${expected.bytes}); it is in ${kept}`);
      }
    }
  });
}
