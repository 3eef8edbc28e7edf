import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
// What a newcomer adding a benchmark writes, in one file: a task with its own samples, its scorer
// and its declared metrics, registered through the public registry API — no file of assay's is
// edited. It is then run as a user runs it (the CLI's entry point, in this process, so the
// registration holds) against a loopback OpenAI-compatible server, and read back with `show --json`.
import { openSqliteStore, registerTask, scoreWith, wilsonInterval, type MetricDeclaration, type Sample, type Scorer, type Task } from '../../src/index.js';
import { main } from '../../src/cli/main.js';
import { startFakeOpenAIServer, type FakeChatRequestBody } from '../../src/testing/fake-openai-server.js';

/** The toy's data set: sums, written inline. */
const QUESTIONS: readonly (readonly [string, number, number])[] = [
  ['s1', 2, 3],
  ['s2', 10, 7],
  ['s3', 4, 4],
  ['s4', 1, 1],
  ['s5', 6, 0],
];

const samples: Sample<number>[] = QUESTIONS.map(([id, a, b]) => ({ id, input: [{ role: 'user', content: `What is ${a} + ${b}? Answer with the number.` }], target: a + b, metadata: {} }));

/** The toy's scorer: the first whole number of the answer against the sum; no number is no verdict. */
const sumScorer: Scorer = {
  name: 'toy/first-number',
  score({ sample, output }) {
    const found = /-?\d+/.exec(output.text ?? '');
    if (!found) return { value: null, explanation: 'no number in the answer' };
    const answer = Number(found[0]);
    return { value: answer === sample.target, answer, explanation: `answered ${answer}, the sum is ${String(sample.target)}` };
  },
};

const declarations: readonly MetricDeclaration[] = [
  { name: 'accuracy', meaning: 'answers with the right sum, of the answers that give a number', unit: 'share', direction: 'higher', interval: 'wilson' },
  { name: 'no_number', meaning: 'answers without a number (no verdict)', unit: 'count', direction: 'lower', interval: 'none' },
];

const toyTask: Task = {
  name: 'toy/sums',
  version: '1',
  description: 'sums of two small numbers (a test fixture)',
  defaultSettings: { temperature: 0 },
  metricDeclarations: declarations,
  async prepare() {
    return { samples, datasetChecksums: {}, promptVersion: 'toy-1', score: scoreWith(sumScorer) };
  },
  metrics(rows) {
    let pass = 0, decided = 0, noNumber = 0;
    for (const { score } of rows) {
      if (score === undefined) continue;
      if (score.value === null) noNumber++;
      else {
        decided++;
        if (score.value === true) pass++;
      }
    }
    const ci = wilsonInterval(pass, decided);
    return { accuracy: decided === 0 ? null : pass / decided, accuracy_ci95: ci && { low: ci.low, high: ci.high }, no_number: noNumber };
  },
};

registerTask(toyTask);

/** The model under test: right on s1–s3, wrong on s4, no number on s5. */
function respond(body: FakeChatRequestBody): { text: string } {
  const question = String((body.messages as readonly { content: string }[])[0]?.content);
  const [a, b] = [...question.matchAll(/\d+/g)].map((m) => Number(m[0]));
  if (a === 1 && b === 1) return { text: 'It is 3.' };
  if (a === 6) return { text: 'I would rather not say.' };
  return { text: `The sum is ${(a ?? 0) + (b ?? 0)}.` };
}

/** Runs the CLI's entry point in this process, returning its exit code and what it wrote on stdout. */
async function assay(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  const write = process.stdout.write.bind(process.stdout);
  let stdout = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    const code = await main(['node', 'assay', ...args]);
    return { code, stdout };
  } finally {
    process.stdout.write = write;
  }
}

/** The 95% Wilson score interval, written out from its formula (Wilson 1927). */
function wilsonByHand(successes: number, n: number): { low: number; high: number } {
  const z = 1.959963984540054;
  const p = successes / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return { low: centre - half, high: centre + half };
}

test('a toy benchmark registered from a test runs through the CLI: its scorer scores, its declared metrics are the hand-computed ones, show --json carries their declarations', async () => {
  const server = await startFakeOpenAIServer({ respond });
  const dir = mkdtempSync(join(tmpdir(), 'assay-toy-'));
  const key = process.env['OPENAI_API_KEY'];
  process.env['OPENAI_API_KEY'] = 'sk-toy';
  try {
    const db = join(dir, 'toy.db');
    const run = await assay(['run', 'toy/sums', '--model', 'openai:toy', '--base-url', server.url, '--db', db, '--data-dir', dir]);
    assert.equal(run.code, 0, run.stdout);
    assert.equal(server.requests.length, QUESTIONS.length);

    const store = await openSqliteStore(db);
    const [stored] = await store.listRuns();
    const results = await store.results(stored?.id ?? '');
    await store.close();
    assert.deepEqual(
      results.map((r) => [r.sampleId, r.score?.value, r.score?.explanation]),
      [
        ['s1', true, 'answered 5, the sum is 5'],
        ['s2', true, 'answered 17, the sum is 17'],
        ['s3', true, 'answered 8, the sum is 8'],
        ['s4', false, 'answered 3, the sum is 2'],
        ['s5', null, 'no number in the answer'],
      ],
    );

    const show = await assay(['show', stored?.id ?? '', '--json', '--db', db]);
    assert.equal(show.code, 0);
    const shown = JSON.parse(show.stdout) as { task: string; models: Record<string, { metrics: Record<string, unknown> }>; metric_declarations: MetricDeclaration[] };
    assert.equal(shown.task, 'toy/sums');
    // By hand: 3 right of the 4 answers with a number; 1 without.
    const metrics = shown.models['openai:toy']?.metrics ?? {};
    assert.equal(metrics['accuracy'], 3 / 4);
    assert.equal(metrics['no_number'], 1);
    const interval = metrics['accuracy_ci95'] as { low: number; high: number };
    const hand = wilsonByHand(3, 4);
    assert.ok(Math.abs(interval.low - hand.low) < 1e-12 && Math.abs(interval.high - hand.high) < 1e-12, `${JSON.stringify(interval)} vs ${JSON.stringify(hand)}`);
    // The figures by hand, so the formula above is the one meant: 0.3006…, 0.9544….
    assert.ok(Math.abs(hand.low - 0.30064) < 1e-4 && Math.abs(hand.high - 0.95441) < 1e-4, JSON.stringify(hand));
    // Every metric the task returned is declared (an interval goes with its metric), and show --json carries the declarations.
    for (const name of Object.keys(metrics)) assert.ok(declarations.some((d) => d.name === name.replace(/_ci95$/, '')), `${name} is not declared`);
    for (const declaration of declarations) assert.deepEqual(shown.metric_declarations.find((d) => d.name === declaration.name), declaration);
  } finally {
    if (key === undefined) delete process.env['OPENAI_API_KEY'];
    else process.env['OPENAI_API_KEY'] = key;
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
