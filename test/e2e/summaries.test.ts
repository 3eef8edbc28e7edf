import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { SummaryJudgment } from '../../src/benchmarks/summaries/judgment.js';
import { exportRows, formatRows } from '../../src/report/export.js';
import { estimateRun } from '../../src/runner/estimate.js';
import { rescoreRun } from '../../src/analysis/rescore.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from '../../src/testing/fake-openai-server.js';

/**
 * summaries/alignment end to end through real HTTP: one loopback OpenAI-compatible server plays the
 * summarizer (`openai:writer`) and the judge (`openai:judge`). The writer's summary of each article
 * is its first sentence, plus a false sentence for the "trap" articles; the judge answers by rules
 * written here: claims = the summary's sentences; a claim is "no" when it says "nine million",
 * "idk" when it mentions the weather, else "yes"; coverage asks two questions and answers "yes"
 * from a text that holds the question's keyword. Expected numbers follow from these rules by hand.
 */
const ARTICLES: Record<string, string> = {
  'news/bridge.txt': 'The mayor opened the bridge on Monday. It cost four million dollars. Crowds watched.',
  'news/school.txt': 'A new school opened in May. It has twelve classrooms.',
  'sport/final.txt': 'The home team won the final. The weather was cold.',
};
const TRAPS = new Set(['news/bridge.txt']);
const firstSentence = (text: string): string => `${text.split('. ')[0]}.`;

let server: FakeServer;
let dir: string;

/** The value fenced under `label` in a judge prompt. */
function fenced(prompt: string, label: string): string {
  const match = new RegExp(`<<<${label} ([0-9a-f]+)>>>\\n([\\s\\S]*?)\\n<<<end ${label} \\1>>>`).exec(prompt);
  if (!match) throw new Error(`no ${label} in the prompt`);
  return match[2] as string;
}

function judgeAnswer(body: FakeChatRequestBody): FakeAnswer {
  const prompt = String(body.messages[0]?.content ?? '');
  const format = (body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  switch (format) {
    case 'claims':
      return { text: JSON.stringify({ claims: fenced(prompt, 'summary').split(/(?<=\.) /).filter((s) => s.trim() !== '') }) };
    case 'verdicts': {
      const claims = JSON.parse(fenced(prompt, 'claims')) as string[];
      return {
        text: JSON.stringify({
          verdicts: claims.map((c) => (c.includes('nine million') ? { verdict: 'no', reason: 'the article says four' } : c.includes('weather') ? { verdict: 'idk', reason: 'not said' } : { verdict: 'yes', reason: 'stated' })),
        }),
      };
    }
    case 'questions':
      return { text: JSON.stringify({ questions: ['Was something opened or won?', 'Is a number of dollars given?'] }) };
    case 'answers': {
      const text = fenced(prompt, 'text');
      return { text: JSON.stringify({ answers: [/opened|won/.test(text) ? 'yes' : 'no', /dollars/.test(text) ? 'yes' : 'idk'] }) };
    }
    default:
      throw new Error(`unexpected judge call (format ${String(format)})`);
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-summaries-'));
  for (const [id, text] of Object.entries(ARTICLES)) {
    mkdirSync(join(dir, 'articles', id.split('/')[0] as string), { recursive: true });
    writeFileSync(join(dir, 'articles', id), text);
  }
  server = await startFakeOpenAIServer({
    latencyMs: 2,
    respond: (body) => {
      if (body.model === 'judge') return judgeAnswer(body);
      // An endpoint that answers 200 with no content at all.
      if (body.model === 'silent') {
        return { rawText: JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'silent', choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 0, total_tokens: 10 } }) };
      }
      const prompt = String(body.messages[0]?.content ?? '');
      const article = Object.entries(ARTICLES).find(([, text]) => prompt.endsWith(text));
      if (!article) throw new Error('no article in the prompt');
      return { text: `${firstSentence(article[1])}${TRAPS.has(article[0]) ? ' It cost nine million dollars.' : ''}` };
    },
  });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const spec = (): RunSpec => ({
  task: 'summaries/alignment',
  models: ['openai:writer'],
  seed: 0,
  options: { task: { articles: join(dir, 'articles'), coverageQuestions: 2 } },
  dataDir: dir,
  engine: { concurrency: 4, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: server.url },
  judge: { model: 'openai:judge', repeats: 1, format: 'json', maxParseRetries: 1, temperature: 0 },
});

test('summaries through real HTTP: one summary call per article, claims → verdicts → coverage by the judge, metrics by hand, every call stored with its step', async () => {
  const store = await openSqliteStore(join(dir, 'summaries.db'));
  try {
    const summary = await startRun(spec(), { store });
    const writer = summary.models['openai:writer'];
    assert.equal(writer?.counts.done, 3);
    // By hand: bridge → claims [opened (yes), nine million (no)]; school → [opened (yes)]; final → [won (yes)].
    // Aligned 2 of 3; verdicts 4, yes 3, idk 0; richness 4/3. Coverage: article answers [yes, yes]
    // for bridge (opened, dollars), [yes, idk] for school and final; the summary answers [yes, yes]
    // for bridge (its false sentence has "dollars"), [yes, idk] for the others → 1, 1, 1 → mean 1.
    assert.equal(writer?.metrics['alignment'], 2 / 3);
    assert.equal(writer?.metrics['claim_support'], 3 / 4);
    assert.equal(writer?.metrics['idk_rate'], 0);
    assert.equal(writer?.metrics['richness'], 4 / 3);
    assert.equal(writer?.metrics['coverage'], 1);
    assert.deepEqual([writer?.metrics['judged'], writer?.metrics['no_verdict'], writer?.metrics['errors']], [3, 0, 0]);
    const byCategory = writer?.metrics['by_category'] as Record<string, Record<string, unknown>>;
    assert.deepEqual([byCategory['news']?.['alignment'], byCategory['sport']?.['alignment']], [0.5, 1]);
    // The judge's totals: 5 calls per summary (claims, verdicts, questions, two answers).
    assert.equal(writer?.judge?.calls, 15);

    // On the wire: 3 summaries, 15 judge calls, each with its JSON schema.
    const bodies = server.requests.map((r) => r.body as FakeChatRequestBody);
    assert.equal(bodies.filter((b) => b.model === 'writer').length, 3);
    assert.equal(bodies.filter((b) => b.model === 'judge').length, 15);

    // In the store: the judgment as the score's answer, and every judge call with its step.
    const results = await store.results(summary.run);
    const bridge = results.find((r) => r.sampleId === 'news/bridge.txt');
    assert.equal(bridge?.score?.value, false);
    assert.deepEqual((bridge?.score?.answer as SummaryJudgment).claims.map((c) => [c.claim, c.verdict]), [
      ['The mayor opened the bridge on Monday.', 'yes'],
      ['It cost nine million dollars.', 'no'],
    ]);
    // The export: one row per summary with its claims, verdicts and reasons (JSONL and CSV).
    const run = await store.getRun(summary.run);
    assert.ok(run);
    const rows = exportRows(run, await store.loadSamples(summary.run), results);
    const bridgeRow = rows.find((r) => r.sample_id === 'news/bridge.txt');
    assert.deepEqual([bridgeRow?.['category'], bridgeRow?.['verdicts'], bridgeRow?.['reasons'], bridgeRow?.['coverage'], bridgeRow?.score], ['news', ['yes', 'no'], ['stated', 'the article says four'], 1, 'fail']);
    const csvHeader = formatRows(rows, 'csv').split('\n')[0];
    assert.equal(csvHeader, 'sample_id,task,model,prompt,candidates,gold,output,answer,score,explanation,error,category,claims,verdicts,reasons,coverage');
    const calls = await store.calls(summary.run, 'news/bridge.txt');
    assert.deepEqual(
      calls.map((c) => [c.role, c.step ?? null]).sort(),
      [['judge', 'claims'], ['judge', 'coverage/answers-from-article'], ['judge', 'coverage/answers-from-summary'], ['judge', 'coverage/questions'], ['judge', 'verdicts'], ['test', null]].sort(),
    );
  } finally {
    await store.close();
  }
});

test('show --readings: the same stored judgments read by assay, the seed and DeepEval, by hand, from the store alone', async () => {
  const store = await openSqliteStore(join(dir, 'summaries.db'));
  let runId: string;
  try {
    const [first] = (await store.listRuns()).slice(-1);
    assert.ok(first);
    runId = first.id;
  } finally {
    await store.close();
  }
  const shown = await assay(['show', runId, '--readings', '--json', '--db', join(dir, 'summaries.db')]);
  assert.equal(shown.code, 0, shown.stderr);
  const readings = JSON.parse(shown.stdout) as { parsers: string[]; notes: string[]; models: Record<string, { metrics: Record<string, Record<string, number>>; outputs: number; differing: number }> };
  assert.deepEqual(readings.parsers, ['assay', 'seed', 'deepeval']);
  const writer = readings.models['openai:writer'];
  // By hand (see the first test): bridge [yes, no], school [yes], final [yes]; coverage 1 each.
  // DeepEval: alignment (0.5 + 1 + 1) / 3, faithfulness the same (no idk), score min(·, 1) the
  // same, and all three pass its 0.5 mark (0.5 ≥ 0.5); the seed and assay: 2 of 3 aligned.
  assert.equal(writer?.metrics['assay']?.['alignment'], 2 / 3);
  assert.equal(writer?.metrics['seed']?.['alignment'], 2 / 3);
  assert.equal(writer?.metrics['deepeval']?.['alignment'], 2.5 / 3);
  assert.equal(writer?.metrics['deepeval']?.['faithfulness'], 2.5 / 3);
  assert.equal(writer?.metrics['deepeval']?.['coverage'], 1);
  assert.equal(writer?.metrics['deepeval']?.['score'], 2.5 / 3);
  assert.equal(writer?.metrics['deepeval']?.['pass_rate'], 1);
  // The bridge fails alignment but passes DeepEval's score.
  assert.deepEqual([writer?.outputs, writer?.differing], [3, 1]);
  const text = await assay(['show', runId, '--readings', '--db', join(dir, 'summaries.db')]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /what each reading counts:/);
  assert.match(text.stdout, /POOLED/);
});

test('a second run with the same judge is answered from the cache: no call goes over the wire', async () => {
  const store = await openSqliteStore(join(dir, 'summaries.db'));
  try {
    const before = server.requests.length;
    const summary = await startRun(spec(), { store });
    assert.equal(summary.models['openai:writer']?.metrics['alignment'], 2 / 3);
    assert.equal(server.requests.length, before);
  } finally {
    await store.close();
  }
});

test('a changed verdict rubric makes verdict calls only: the claims come back from the cache', async () => {
  const rubric = join(dir, 'my-verdicts.txt');
  writeFileSync(rubric, 'Check each claim against the article.\n\nArticle:\n{article}\n\nClaims:\n{claims}\n\nAnswer {"verdicts": [{"verdict": "yes", "reason": "..."}]}, one per claim.');
  const store = await openSqliteStore(join(dir, 'summaries.db'));
  try {
    const before = server.requests.length;
    const base = spec();
    const summary = await startRun({ ...base, options: { ...base.options, rubrics: { verdicts: rubric } } }, { store });
    assert.equal(summary.models['openai:writer']?.metrics['alignment'], 2 / 3);
    const formats = server.requests.slice(before).map((r) => ((r.body as FakeChatRequestBody)['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? 'summary');
    assert.deepEqual(formats, ['verdicts', 'verdicts', 'verdicts']);
  } finally {
    await store.close();
  }
});

test('--estimate bounds the judge calls of a multi-step judgment: (claims + R verdicts + 3 coverage) × (1 + re-asks) per summary', async () => {
  const estimate = await estimateRun(spec());
  // R = 1, one re-ask, coverage on: (1 + 1 + 3) × 2 = 10 per summary, 3 summaries → 30 (the run made 15).
  assert.equal(estimate.judge?.calls_max, 30);
  const base = spec();
  const perClaim = await estimateRun({ ...base, options: { task: { ...base.options.task, verdicts: 'per-claim' } } });
  assert.equal(perClaim.judge?.calls_max, null, 'one call per claim cannot be bounded before the summaries exist');
});

test('rescore runs the judge pipeline again from the call cache alone: same judgments, no call over the wire', async () => {
  const store = await openSqliteStore(join(dir, 'summaries.db'));
  try {
    const [latest] = await store.listRuns();
    assert.ok(latest);
    const before = server.requests.length;
    const outcome = await rescoreRun(store, latest.id);
    assert.deepEqual([outcome.rescored, outcome.changed, outcome.keptJudged], [3, 0, 0]);
    assert.equal(outcome.summary.models['openai:writer']?.metrics['alignment'], 2 / 3);
    assert.equal(outcome.summary.models['openai:writer']?.judge?.calls, 15, 'the judge totals stay those of the run');
    assert.equal(server.requests.length, before);
  } finally {
    await store.close();
  }
});

test('an endpoint that answers 200 with content null: every summary empty, none aligned, counted apart, and show says so', async () => {
  const db = join(dir, 'summaries-empty.db');
  const store = await openSqliteStore(db);
  let runId: string;
  try {
    const summary = await startRun({ ...spec(), models: ['openai:silent'] }, { store });
    runId = summary.run;
    const silent = summary.models['openai:silent'];
    // Three articles, three empty summaries: judged, not aligned (before: alignment 100%).
    assert.deepEqual([silent?.metrics['alignment'], silent?.metrics['empty_summaries'], silent?.metrics['judged'], silent?.metrics['errors']], [0, 3, 3, 0]);
    // No claims call and no summary-side coverage call: only the article side is asked.
    const calls = await store.calls(runId, 'news/bridge.txt');
    assert.deepEqual(calls.filter((c) => c.role === 'judge').map((c) => c.step).sort(), ['coverage/answers-from-article', 'coverage/questions']);
  } finally {
    await store.close();
  }
  const shown = await assay(['show', runId, '--db', db]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /note: 3 summaries with no claim \(an empty answer included\): counted as not aligned/);
});
