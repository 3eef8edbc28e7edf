import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { MetatoolFileServer } from '../../src/datasets/fetch/test-support/file-server.js';
import { FunctionChatFileServer } from '../../src/datasets/fetch/test-support/functionchat-file-server.js';
import { pickleRecords } from '../../src/datasets/fetch/test-support/pickler.js';
import { needsData, testDataDir as sharedDataDir, type TestDataset } from '../../src/testing/test-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { wilsonInterval } from '../../src/metrics/intervals.js';
import { assay, fileSha, linesOf, listFiles, type CliResult } from '../../src/testing/cli-harness.js';

const dataDir = sharedDataDir();
/** Without the benchmark data the tests that read it are skipped, saying how to get it. */
const skipMetaTool = needsData('metatool');
const skipFunctionChat = needsData('functionchat');
const work = mkdtempSync(path.join(tmpdir(), 'assay-cli-e2e-'));
after(() => rmSync(work, { recursive: true, force: true }));

/**
 * Every CLI call gets the shared data, a private user cache, and a dataset mirror that refuses
 * connections: no test can write to the real cache or reach the internet by accident.
 */
const baseEnv: NodeJS.ProcessEnv = {
  ASSAY_DATA_DIR: dataDir,
  XDG_CACHE_HOME: path.join(work, 'cache'),
  ASSAY_METATOOL_BASE_URL: 'http://127.0.0.1:9/unreachable/',
  ASSAY_FUNCTIONCHAT_BASE_URL: 'http://127.0.0.1:9/unreachable/',
};
const run = (args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => assay(args, { ...baseEnv, ...env });

let dbCount = 0;
const freshDb = (): string => path.join(work, `db-${dbCount++}`, 'assay.db');

const ALL_TASKS = [
  'metatool/awareness',
  'metatool/similar',
  'metatool/scenario',
  'metatool/reliability',
  'metatool/multi',
  'functionchat/singlecall',
  'functionchat/dialog',
  'functionchat/calldecision',
  'summaries/alignment',
  'quality/groundedness',
  'harm/copyrighted-text-leakage',
  'harm/groundedness',
  'harm/system-prompt-leakage',
  'cases',
];

/** One exported row, as `assay export --format jsonl` writes it. */
interface Row {
  sample_id: string;
  task: string;
  model: string;
  prompt: string;
  candidates: string[] | null;
  gold: unknown;
  output: string | null;
  answer: unknown;
  score: string;
  explanation: string | null;
  error: string | null;
}

const jsonlRows = (text: string): Row[] => linesOf(text).map((line) => JSON.parse(line) as Row);

/** Exit code 2 and exactly one line on stderr, `assay: …`, with no stack trace. */
function assertOneLineError(result: CliResult, expected: RegExp): void {
  assert.equal(result.code, 2, `exit code of a user error (stderr: ${result.stderr})`);
  const lines = linesOf(result.stderr);
  assert.equal(lines.length, 1, `exactly one line on stderr, got:\n${result.stderr}`);
  assert.match(lines[0] as string, /^assay: /);
  assert.match(lines[0] as string, expected);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(result.stdout, '', 'nothing on stdout');
}

function assertRate(value: unknown, name: string): void {
  if (value === null) return;
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) assertRate(v, `${name}.${k}`);
    return;
  }
  assert.equal(typeof value, 'number', name);
  assert.ok((value as number) >= 0 && (value as number) <= 1, `${name} = ${String(value)} is in [0, 1]`);
}

describe('assay list', () => {
  test('text and --json show the MetaTool, FunctionChat, summaries, groundedness, shipped harm and cases tasks', async () => {
    const text = await run(['list']);
    assert.equal(text.code, 0);
    assert.deepEqual(linesOf(text.stdout).map((l) => l.split(/\s+/)[0]), ALL_TASKS);
    const json = await run(['list', '--json']);
    assert.equal(json.code, 0);
    const tasks = JSON.parse(json.stdout) as Array<{ name: string; version: string; description: string }>;
    assert.deepEqual(tasks.map((t) => t.name), ALL_TASKS);
    for (const t of tasks) assert.ok(t.description.length > 0 && t.version.length > 0);
  });
});

describe('a baseline run, then runs / show / export', { skip: skipMetaTool }, () => {
  const db = freshDb();
  let summary: { run: string; task: string; status: string; cost_by_role: unknown[]; models: Record<string, { metrics: Record<string, unknown>; counts: Record<string, unknown> }> };

  test('run --json prints exactly one JSON summary and exits 0', async () => {
    const result = await run(['run', 'metatool/similar', '--model', 'baseline:lexical', '--per-tool', '1', '--json', '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(linesOf(result.stdout).length, 1, 'one line on stdout');
    summary = JSON.parse(result.stdout) as typeof summary;
    assert.deepEqual(Object.keys(summary).sort(), ['cost_by_role', 'models', 'run', 'status', 'task']);
    assert.equal(summary.task, 'metatool/similar');
    assert.equal(summary.status, 'finished');
    assert.deepEqual(Object.keys(summary.models), ['baseline:lexical']);
    const { metrics, counts } = summary.models['baseline:lexical'] as (typeof summary.models)[string];
    assert.equal(typeof metrics['csr'], 'number');
    for (const [name, value] of Object.entries(metrics)) assertRate(value, name);
    assert.ok((counts['samples'] as number) > 0);
    assert.equal(counts['done'], counts['samples']);
    assert.equal(counts['errors'], 0);
    // One call per sample, all by the model under test; a baseline costs nothing.
    assert.deepEqual(summary.cost_by_role, [{ role: 'test', model: 'baseline:lexical', calls: counts['samples'], failed_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 }]);
    assert.match(result.stderr, new RegExp(`run ${summary.run}: metatool/similar on baseline:lexical`));
  });

  test('runs lists it; show <prefix> --json equals the run summary', async () => {
    const runs = await run(['runs', '--json', '--db', db]);
    assert.equal(runs.code, 0);
    const records = JSON.parse(runs.stdout) as Array<{ id: string; task: string; status: string; models: string[] }>;
    assert.deepEqual(records.map((r) => [r.id, r.task, r.status, r.models]), [[summary.run, 'metatool/similar', 'finished', ['baseline:lexical']]]);
    const text = await run(['runs', '--db', db]);
    assert.match(text.stdout, new RegExp(`^${summary.run}\\s+metatool/similar\\s+finished\\s+baseline:lexical`, 'm'));

    const show = await run(['show', summary.run.slice(0, 12), '--json', '--db', db]);
    assert.equal(show.code, 0, show.stderr);
    // The run's summary, and after it each metric's declaration (show's own field).
    const { metric_declarations: declarations, ...shown } = JSON.parse(show.stdout) as typeof summary & { metric_declarations: { name: string }[] };
    assert.deepEqual(shown, summary);
    assert.deepEqual(declarations.map((d) => d.name), ['csr', 'no_verdict', 'hallucinated', 'csr_by_position', 'top1', 'top3', 'top5']);
    assert.equal(show.stderr, '', 'no parser note for a run that was never re-scored');
  });

  test('export jsonl rows carry the exact prompt, shown candidates, gold, output, answer and score', async () => {
    const result = await run(['export', summary.run, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    const rows = jsonlRows(result.stdout);
    const store = await openSqliteStore(db);
    try {
      const samples = new Map((await store.loadSamples(summary.run)).map((s) => [s.id, s]));
      const results = await store.results(summary.run);
      assert.equal(rows.length, results.length);
      assert.equal(rows.length, samples.size);
      for (const row of rows) {
        const sample = samples.get(row.sample_id);
        const stored = results.find((r) => r.sampleId === row.sample_id);
        assert.ok(sample && stored, row.sample_id);
        assert.equal(row.task, 'metatool/similar');
        assert.equal(row.model, 'baseline:lexical');
        const message = sample.input[0];
        assert.equal(sample.input.length, 1);
        assert.equal(message?.role, 'user');
        assert.equal(row.prompt, message?.content);
        // Candidates in the order shown: each appears in the prompt after the one before it.
        assert.ok(row.candidates && row.candidates.length === 10, `${row.sample_id}: ten candidates`);
        let from = -1;
        for (const name of row.candidates) {
          const at = row.prompt.indexOf(name, from + 1);
          assert.ok(at > from, `${row.sample_id}: ${name} is shown after the previous candidate`);
          from = at;
        }
        assert.deepEqual(row.gold, sample.target);
        // Single-tool tasks store the gold as a name, multi-tool ones as a list.
        const golds = Array.isArray(row.gold) ? (row.gold as string[]) : [row.gold as string];
        assert.ok(golds.length > 0 && golds.every((g) => row.candidates?.includes(g)), `${row.sample_id}: the gold is among the candidates`);
        assert.equal(row.output, stored.output?.text);
        assert.deepEqual(row.answer, stored.score?.answer);
        const value = stored.score?.value;
        assert.equal(row.score, value === true ? 'pass' : value === false ? 'fail' : 'no-verdict');
        // A pass is exactly "the one tool answered is the gold".
        assert.equal(row.score === 'pass', JSON.stringify(row.answer) === JSON.stringify(golds));
        assert.equal(row.error, null);
      }
    } finally {
      await store.close();
    }
  });

  test('export csv and tsv parse back to the same cell values as jsonl', async () => {
    const rows = jsonlRows((await run(['export', summary.run, '--db', db])).stdout);
    // Documented cell encoding: text as is, null as empty, lists and objects as JSON.
    const cell = (v: unknown): string => (v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    const columns = ['sample_id', 'task', 'model', 'prompt', 'candidates', 'gold', 'output', 'answer', 'score', 'explanation', 'error'] as const;
    for (const [format, delimiter] of [['csv', ','], ['tsv', '\t']] as const) {
      const out = path.join(work, `export.${format}`);
      const result = await run(['export', summary.run, '--format', format, '--out', out, '--db', db]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, '');
      const records = parse(readFileSync(out, 'utf8'), { columns: true, delimiter }) as Record<string, string>[];
      assert.equal(records.length, rows.length, format);
      records.forEach((record, i) => {
        const row = rows[i] as Row;
        assert.deepEqual(Object.keys(record), [...columns], `${format}: header`);
        for (const c of columns) assert.equal(record[c], cell(row[c]), `${format} row ${i} column ${c}`);
        assert.deepEqual(JSON.parse(record['candidates'] as string), row.candidates);
      });
    }
  });
});

describe('replay files', { skip: skipMetaTool }, () => {
  const db = freshDb();
  const selection = ['metatool/similar', '--per-tool', '1', '--limit', '5', '--seed', '3'];

  test('a replay file missing one sample: exit 3, that sample is a missing-output error, the others are scored', async () => {
    const baseline = await run(['run', ...selection, '--model', 'baseline:random', '--json', '--db', db]);
    assert.equal(baseline.code, 0, baseline.stderr);
    const baselineRun = (JSON.parse(baseline.stdout) as { run: string }).run;
    const rows = jsonlRows((await run(['export', baselineRun, '--db', db])).stdout);
    assert.equal(rows.length, 5);

    // Samples 0 and 1 answer their gold, 2 and 3 another shown tool, 4 has no line.
    const lines = rows.slice(0, 4).map((row, i) => {
      const gold = row.gold as string;
      const other = (row.candidates as string[]).find((c) => !c.includes(gold) && !gold.includes(c)) as string;
      return JSON.stringify({ id: row.sample_id, output: i < 2 ? gold : other });
    });
    const file = path.join(work, 'similar-replay.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);

    const result = await run(['run', ...selection, '--model', `replay:${file}`, '--json', '--db', db]);
    assert.equal(result.code, 3, result.stderr);
    const summary = JSON.parse(result.stdout) as { run: string; models: Record<string, { metrics: Record<string, unknown>; counts: Record<string, unknown> }> };
    const model = summary.models[`replay:${file}`];
    assert.ok(model);
    assert.equal(model.counts['done'], 4);
    assert.equal(model.counts['errors'], 1);
    assert.deepEqual(model.counts['errors_by_kind'], { 'missing-output': 1 });
    assert.equal(model.metrics['csr'], 2 / 4);
    assert.equal(model.metrics['no_verdict'], 0);

    const replayRows = jsonlRows((await run(['export', summary.run, '--db', db])).stdout);
    const missing = replayRows.find((r) => r.sample_id === rows[4]?.sample_id);
    assert.equal(missing?.score, 'error');
    assert.match(missing?.error ?? '', /^missing-output: /);
    assert.equal(missing?.output, null);
    assert.deepEqual(
      replayRows.filter((r) => r !== missing).map((r) => [r.sample_id, r.score]),
      rows.slice(0, 4).map((r, i) => [r.sample_id, i < 2 ? 'pass' : 'fail']),
    );
  });

  test('a replay file with a bad line: exit 2, the message names the file and line', async () => {
    const file = path.join(work, 'bad-replay.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'similar/x', output: 'A' })}\n{"id": "similar/y", "output": \n`);
    const result = await run(['run', ...selection, '--model', `replay:${file}`, '--db', db]);
    assertOneLineError(result, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: not valid JSON`));
  });
});

const badInputDb = freshDb();
describe('bad input: exit 2 and one line on stderr', { concurrency: 4 }, () => {
  const db = badInputDb;
  const cases: Array<[string, string[], RegExp, NodeJS.ProcessEnv?]> = [
    ['unknown task', ['run', 'metatool/nope', '-m', 'baseline:lexical'], /unknown task "metatool\/nope"/],
    ['--limit 0', ['run', 'metatool/similar', '-m', 'baseline:lexical', '--limit', '0'], /^assay: --limit must be a positive integer, got "0"/],
    ['--limit x', ['run', 'metatool/similar', '-m', 'baseline:lexical', '--limit', 'x'], /^assay: --limit must be a positive integer, got "x"/],
    ['missing --data-dir', ['run', 'metatool/similar', '-m', 'baseline:lexical', '--data-dir', path.join(work, 'no-such-dir')], /no-such-dir \(from --data-dir\) does not exist/],
    ['ASSAY_DATA_DIR without the data, --no-download', ['run', 'metatool/similar', '-m', 'baseline:lexical', '--no-download'], /MetaTool data not found in .*empty-data[/\\]metatool \(from ASSAY_DATA_DIR\) and downloads are disabled/, { ASSAY_DATA_DIR: path.join(work, 'empty-data') }],
    ['unknown provider', ['run', 'metatool/similar', '-m', 'nosuch:model'], /unknown provider "nosuch"/],
    ['--shots 5 on multi', ['run', 'metatool/multi', '-m', 'baseline:lexical', '--shots', '5'], /metatool\/multi: five-shot is not available/],
    ['--shots 3', ['run', 'metatool/similar', '-m', 'baseline:lexical', '--shots', '3'], /^assay: --shots must be one of 0, 5, got "3"/],
    ['no --model', ['run', 'metatool/similar'], /required option '-m, --model <id>' not specified/],
    ['unknown option', ['run', 'metatool/similar', '-m', 'baseline:lexical', '--frobnicate'], /unknown option '--frobnicate'/],
    ['unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
    ['unknown run', ['show', 'no-such-run'], /no run "no-such-run"/],
    ['rescore of an unknown run', ['rescore', 'x', '--parser', 'paper'], /no run "x"/],
    ['export in an unknown format', ['export', 'x', '--format', 'xml'], /^assay: --format must be one of jsonl, csv, tsv, got "xml"/],
    ['a judged task without --judge', ['run', 'functionchat/dialog', '-m', 'openai:m'], /functionchat\/dialog is graded by an LLM judge: give --judge <model id>/],
    ['--judge and --exact-only together', ['run', 'functionchat/dialog', '-m', 'openai:m', '--judge', 'openai:j', '--exact-only'], /give either --judge or --exact-only/],
    ['--judge on a task scored without one', ['run', 'metatool/similar', '-m', 'baseline:lexical', '--judge', 'openai:j'], /metatool\/similar is scored without a judge; drop --judge/],
    ['an unknown bench version', ['run', 'functionchat/dialog', '-m', 'openai:m', '--exact-only', '--bench-version', 'v9'], /unknown --bench-version "v9"; known versions: v2\.0\.0, paper-2024-09/],
    ['call decision in the paper-era version', ['run', 'functionchat/calldecision', '-m', 'openai:m', '--exact-only', '--bench-version', 'paper-2024-09'], /paper-2024-09 has no CallDecision file/],
    ['a baseline on FunctionChat', ['run', 'functionchat/singlecall', '-m', 'baseline:lexical', '--exact-only'], /baseline:lexical is a reference point for MetaTool's questions/],
    ['--judge-repeats 0', ['run', 'functionchat/dialog', '-m', 'openai:m', '--judge', 'openai:j', '--judge-repeats', '0'], /--judge-repeats must be a positive integer/],
    ['a review file that does not exist', ['review', 'x', '--apply', path.join(work, 'no-such.csv')], /cannot read review file .*no-such\.csv: ENOENT/],
  ];
  // These are told only once the task's data is read.
  const readsData: Readonly<Record<string, TestDataset>> = {
    '--shots 5 on multi': 'metatool',
    '--judge on a task scored without one': 'metatool',
    'a judged task without --judge': 'functionchat',
    '--judge and --exact-only together': 'functionchat',
    'an unknown bench version': 'functionchat',
    'call decision in the paper-era version': 'functionchat',
    'a baseline on FunctionChat': 'functionchat',
  };
  before(async () => {
    mkdirSync(path.join(work, 'empty-data'), { recursive: true });
    // An existing, empty store: the commands that only read refuse one that does not exist.
    await (await openSqliteStore(db)).close();
  });
  for (const [name, args, expected, env] of cases) {
    const dataset = readsData[name];
    test(name, { skip: dataset ? needsData(dataset) : false }, async () => assertOneLineError(await run([...args, '--db', db], env), expected));
  }
});

test('no run was recorded by any of the bad inputs', async () => {
  const runs = await run(['runs', '--json', '--db', badInputDb]);
  assert.deepEqual(JSON.parse(runs.stdout), []);
});

describe('assay rescore', { skip: skipMetaTool }, () => {
  const db = freshDb();
  const selection = ['metatool/awareness', '--limit', '6'];
  // Answers chosen for how the two parsers read them (see scorers/yes-no.ts):
  // "I know the answer": strict finds no leading yes/no (no verdict); the paper's rule 1 finds "no"
  // inside "know", no "yes" and none of its five negative phrases → yes. "No." is yes for the
  // paper too (the same rule). "Maybe so" is no verdict for strict, manual analysis for the paper.
  const answers = { positive: ['I know the answer', 'Yes.', 'No.'], negative: ['Maybe so', 'No.', 'Yes'] };
  // Hand-computed, positive class = needs a tool, 3 positives and 3 negatives:
  // strict: tp 1 (Yes.), fn 1 (No.), no verdict on one positive; tn 1 (No.), fp 1 (Yes), no verdict on one negative.
  // Each share with Wilson's 95% interval of the same counts.
  const wilson = (hits: number, n: number): { low: number; high: number } | null => {
    const ci = wilsonInterval(hits, n);
    return ci && { low: ci.low, high: ci.high };
  };
  const strict = { accuracy: 2 / 6, accuracy_ci95: wilson(2, 6), precision: 1 / 2, precision_ci95: wilson(1, 2), recall: 1 / 3, recall_ci95: wilson(1, 3), f1: (2 * 1) / (2 + 3), no_verdict: 2 / 6, no_verdict_ci95: wilson(2, 6), confusion: { tp: 1, fp: 1, tn: 1, fn: 1, no_verdict: 2 } };
  // paper: every positive reads yes (tp 3); of the negatives, "Maybe so" is manual and the two
  // others read yes (fp 2). Over the 5 decided: accuracy 3/5, precision 3/5, recall 3/3,
  // F1 = 2·3 / (2·3 + 2 + 0) = 0.75.
  const paper = { accuracy: 3 / 5, accuracy_ci95: wilson(3, 5), precision: 3 / 5, precision_ci95: wilson(3, 5), recall: 1, recall_ci95: wilson(3, 3), f1: 6 / 8, manual: 1, decided: 5, confusion: { tp: 3, fp: 2, tn: 0, fn: 0, no_verdict: 0 } };
  let runId = '';
  let file = '';

  test('a replay awareness run scored with the strict parser', async () => {
    const baseline = await run(['run', ...selection, '--model', 'baseline:lexical', '--json', '--db', db]);
    assert.equal(baseline.code, 0, baseline.stderr);
    const rows = jsonlRows((await run(['export', (JSON.parse(baseline.stdout) as { run: string }).run, '--db', db])).stdout);
    const positives = rows.filter((r) => r.gold === true);
    const negatives = rows.filter((r) => r.gold === false);
    assert.equal(positives.length, 3, 'the first six awareness items hold three that need a tool');
    assert.equal(negatives.length, 3);
    file = path.join(work, 'awareness-replay.jsonl');
    const lines = [...positives.map((r, i) => ({ id: r.sample_id, output: answers.positive[i] })), ...negatives.map((r, i) => ({ id: r.sample_id, output: answers.negative[i] }))];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));

    const result = await run(['run', ...selection, '--model', `replay:${file}`, '--json', '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout) as { run: string; models: Record<string, { metrics: unknown }> };
    runId = summary.run;
    assert.deepEqual(summary.models[`replay:${file}`]?.metrics, strict);
  });

  test('rescore --parser paper changes the metrics as computed by hand, and says so', async () => {
    const result = await run(['rescore', runId, '--parser', 'paper', '--json', '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout) as { run: string; models: Record<string, { metrics: unknown; counts: Record<string, unknown> }>; rescore: Record<string, unknown> };
    assert.equal(out.run, runId);
    assert.deepEqual(out.models[`replay:${file}`]?.metrics, paper);
    assert.equal(out.models[`replay:${file}`]?.counts['no_verdict'], 1, 'the manual one');
    assert.equal(out.models[`replay:${file}`]?.counts['manual'], 1, 'counted as manual too');
    assert.equal(out.rescore['outputs'], 6);
    assert.equal(out.rescore['changed'], 3, '"I know the answer" and the two "No."');
    assert.equal((out.rescore['storedOptions'] as { parser: string }).parser, 'strict');
    assert.equal((out.rescore['scoredWith'] as { parser: string }).parser, 'paper');

    // The stored scores are the new ones: show recomputes the same numbers and notes the parser.
    const show = await run(['show', runId, '--json', '--db', db]);
    assert.equal(show.code, 0);
    assert.deepEqual((JSON.parse(show.stdout) as typeof out).models[`replay:${file}`]?.metrics, paper);
    assert.match(show.stderr, /made with --parser strict, but its stored scores were computed with --parser paper \(6 scores\)/);
    const shown = await run(['show', runId, '--db', db]);
    assert.match(shown.stdout, /pending 0, no verdict 0, manual 1, cached/, 'manual analysis is shown as such, not as a no verdict');
    const know = jsonlRows((await run(['export', runId, '--db', db])).stdout).filter((r) => r.output === 'I know the answer');
    assert.deepEqual(know.map((r) => [r.answer, r.score]), [['yes', 'pass']]);
    const maybe = jsonlRows((await run(['export', runId, '--db', db])).stdout).filter((r) => r.output === 'Maybe so');
    assert.deepEqual(maybe.map((r) => [r.answer, r.score, String(r.explanation).startsWith('manual analysis:')]), [[null, 'manual', true]]);

    const text = await run(['rescore', runId, '--parser', 'strict', '--db', db]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /6 stored output\(s\) re-parsed, 3 score\(s\) changed; no model was called/);
    assert.doesNotMatch(text.stdout, /note:/, 'strict is what the run was made with');
    const back = await run(['show', runId, '--json', '--db', db]);
    assert.deepEqual((JSON.parse(back.stdout) as typeof out).models[`replay:${file}`]?.metrics, strict);
    assert.equal(back.stderr, '');
  });

  test('rescore --parser paper re-reads a selection task with the paper\'s rules; show --readings prints both readings', async () => {
    const similar = await run(['run', 'metatool/similar', '--per-tool', '1', '--limit', '2', '-m', 'baseline:lexical', '--json', '--db', db]);
    const id = (JSON.parse(similar.stdout) as { run: string }).run;
    const plain = await run(['rescore', id, '--json', '--db', db]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal((JSON.parse(plain.stdout) as { rescore: { changed: number } }).rescore.changed, 0, 'the same scorer gives the same scores');
    const readings = await run(['show', id, '--readings', '--json', '--db', db]);
    assert.equal(readings.code, 0, readings.stderr);
    const both = JSON.parse(readings.stdout) as { parsers: string[]; models: Record<string, { metrics: Record<string, Record<string, unknown>>; outputs: number }> };
    assert.deepEqual(both.parsers, ['strict', 'paper']);
    assert.equal(both.models['baseline:lexical']?.outputs, 2);
    assert.deepEqual(Object.keys(both.models['baseline:lexical']?.metrics['paper'] ?? {}).sort(), ['csr', 'csr_by_position', 'csr_ci95', 'decided', 'manual', 'top1', 'top3', 'top5']);
    const paper = await run(['rescore', id, '--parser', 'paper', '--json', '--db', db]);
    assert.equal(paper.code, 0, paper.stderr);
    assert.deepEqual((JSON.parse(paper.stdout) as { models: Record<string, { metrics: unknown }> }).models['baseline:lexical']?.metrics, both.models['baseline:lexical']?.metrics['paper']);
    assert.match((await run(['show', id, '--db', db])).stderr, /made with --parser strict, but its stored scores were computed with --parser paper \(2 scores\)/);
    assert.equal((await run(['rescore', id, '--parser', 'strict', '--db', db])).code, 0);
    assert.equal((await run(['show', id, '--db', db])).stderr, '', 'strict selection scores name no parser and are read as strict');
    const text = await run(['show', id, '--readings', '--db', db]);
    assert.match(text.stdout, /metric +strict +paper/);
    assert.match(text.stdout, /outputs read: 2; with another verdict under another reading: \d+/);
  });
});

describe('assay data', { skip: skipMetaTool }, () => {
  const sharedFiles = listFiles(dataDir, 'metatool');
  let server: MetatoolFileServer;

  before(async () => {
    server = await MetatoolFileServer.start(path.join(dataDir, 'metatool'));
    // The embeddings pickle is not in the shared copy: a stand-in made from the derived records,
    // so the files derived from it must come out with their pinned checksums.
    const records = JSON.parse(readFileSync(path.join(dataDir, 'metatool/derived/tool_embedding.json'), 'utf8')) as Array<{ tool: string; embedding: number[] }>;
    server.overrides.set('/dataset/tool_embedding.pkl', pickleRecords(records, { protocol: 4 }));
  });
  after(() => server.close());

  test('data path prints the data dir and where it came from', async () => {
    const fromEnv = await run(['data', 'path', '--json']);
    assert.equal(fromEnv.code, 0);
    assert.deepEqual(JSON.parse(fromEnv.stdout), { dir: path.resolve(dataDir), source: 'env', datasets: { metatool: true, functionchat: true } });
    const text = await run(['data', 'path']);
    assert.deepEqual(linesOf(text.stdout).slice(0, 2), [path.resolve(dataDir), '  source: ASSAY_DATA_DIR']);
    const fromCache = await run(['data', 'path', '--json'], { ASSAY_DATA_DIR: '' });
    assert.deepEqual(JSON.parse(fromCache.stdout), { dir: path.join(work, 'cache', 'assay', 'datasets'), source: 'cache', datasets: { metatool: false, functionchat: false } });
  });

  test('data verify of the shared copy: exit 0, every file verified', async () => {
    const result = await run(['data', 'verify', '--data-dir', dataDir, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { ok: boolean; verified: string[]; missing: string[] };
    assert.equal(report.ok, true);
    assert.deepEqual([...report.verified].sort(), sharedFiles);
  });

  test('data verify of a damaged copy: exit 2 with the report', async () => {
    const copy = path.join(work, 'damaged');
    cpSync(path.join(dataDir, 'metatool'), path.join(copy, 'metatool'), { recursive: true });
    writeFileSync(path.join(copy, 'metatool/LICENSE'), 'not the license');
    rmSync(path.join(copy, 'metatool/scenario/elders.json'));
    const result = await run(['data', 'verify', '--data-dir', copy]);
    assert.equal(result.code, 2);
    assert.match(result.stdout, /^ {2}missing {4}metatool\/scenario\/elders\.json$/m);
    assert.match(result.stdout, /^ {2}mismatched metatool\/LICENSE: /m);
    assert.equal(linesOf(result.stderr).length, 1);
    assert.match(result.stderr, /^assay: metatool in .* does not match its pinned checksums \(1 missing, 1 mismatched\)/);
  });

  let downloaded = '';
  test('run downloads a missing dataset from the mirror, then reads it', async () => {
    downloaded = path.join(work, 'downloaded');
    mkdirSync(downloaded);
    const result = await run(['run', 'metatool/awareness', '-m', 'baseline:lexical', '--limit', '2', '--data-dir', downloaded, '--json', '--db', freshDb()], {
      ASSAY_METATOOL_BASE_URL: server.baseUrl,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /MetaTool data not found in .*downloaded[/\\]metatool \(from --data-dir\); downloading it/);
    assert.match(result.stderr, /^warning: .*tool_embedding\.pkl is not pinned by checksum/m);
    assert.equal((JSON.parse(result.stdout) as { status: string }).status, 'finished');
    assert.deepEqual(listFiles(downloaded, 'metatool'), sharedFiles, 'the same files as the shared copy');
    for (const file of sharedFiles) assert.equal(fileSha(path.join(downloaded, file)), fileSha(path.join(dataDir, file)), file);
    assert.equal((await run(['data', 'verify', '--data-dir', downloaded])).code, 0);
  });

  test('data fetch downloads only what is missing and verifies it', async () => {
    const copy = path.join(work, 'partial');
    cpSync(path.join(downloaded, 'metatool'), path.join(copy, 'metatool'), { recursive: true });
    rmSync(path.join(copy, 'metatool/scenario/elders.json'));
    rmSync(path.join(copy, 'metatool/derived/tool_neighbors_top20.json'));
    const requestsBefore = server.requests.length;
    const result = await run(['data', 'fetch', '--data-dir', copy, '--json'], { ASSAY_METATOOL_BASE_URL: server.baseUrl });
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout) as { downloaded: string[]; derived: string[]; verified: string[] };
    assert.deepEqual(out.downloaded, ['metatool/scenario/elders.json']);
    assert.deepEqual(out.derived, ['metatool/derived/tool_neighbors_top20.json']);
    assert.equal(out.verified.length, sharedFiles.length - 2);
    // One request for the missing file, one for the pickle the neighbours are derived from.
    assert.deepEqual(server.requests.slice(requestsBefore).map((r) => decodeURIComponent(r)).sort(), ['/dataset/scenario/elders.json', '/dataset/tool_embedding.pkl']);
    assert.equal(fileSha(path.join(copy, 'metatool/derived/tool_neighbors_top20.json')), fileSha(path.join(dataDir, 'metatool/derived/tool_neighbors_top20.json')));
    assert.equal((await run(['data', 'verify', '--data-dir', copy])).code, 0);
  });

  test('an incomplete user cache (an interrupted download) is completed by the next run', async () => {
    const cacheHome = path.join(work, 'cache-partial');
    const cached = path.join(cacheHome, 'assay', 'datasets');
    cpSync(path.join(downloaded, 'metatool'), path.join(cached, 'metatool'), { recursive: true });
    rmSync(path.join(cached, 'metatool/scenario/elders.json'));
    const requestsBefore = server.requests.length;
    const result = await run(['run', 'metatool/awareness', '-m', 'baseline:lexical', '--limit', '1', '--db', freshDb()], {
      ASSAY_DATA_DIR: '',
      XDG_CACHE_HOME: cacheHome,
      ASSAY_METATOOL_BASE_URL: server.baseUrl,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /MetaTool data incomplete in .*cache-partial.* \(the user cache\); downloading it/);
    assert.deepEqual(server.requests.slice(requestsBefore).map((r) => decodeURIComponent(r)), ['/dataset/scenario/elders.json']);
    assert.equal(fileSha(path.join(cached, 'metatool/scenario/elders.json')), fileSha(path.join(dataDir, 'metatool/scenario/elders.json')));
  });

  test('a failed download is one line, and leaves no half-filled dataset folder behind', async () => {
    const target = path.join(work, 'unreachable');
    mkdirSync(target);
    const result = await run(['run', 'metatool/similar', '-m', 'baseline:lexical', '--data-dir', target, '--db', freshDb()], { ASSAY_METATOOL_BASE_URL: `${server.origin}/no-such-folder/` });
    assert.equal(result.code, 2);
    const errors = linesOf(result.stderr).filter((l) => l.startsWith('assay: '));
    assert.equal(errors.length, 1);
    assert.match(errors[0] as string, /MetaTool data not found in .* and could not be downloaded .*404.*--data-dir \/ ASSAY_DATA_DIR/);
    assert.equal(existsSync(path.join(target, 'metatool')), false);
  });
});

describe('assay data: FunctionChat-Bench', { skip: skipFunctionChat }, () => {
  const sharedFiles = listFiles(dataDir, 'functionchat');
  const V2 = 'cb32af378a2b94ee84fc4d3cb50302377c7ff679';
  let server: FunctionChatFileServer;
  let mirror: NodeJS.ProcessEnv;
  before(async () => {
    server = await FunctionChatFileServer.start(path.join(dataDir, 'functionchat'));
    mirror = { ASSAY_FUNCTIONCHAT_BASE_URL: server.baseUrl };
  });
  after(() => server.close());

  /** Two paper-era single-call items answered with plain text: exact match fails both, no judge needed. */
  const replayFile = (): string => {
    const file = path.join(work, 'functionchat-replay.jsonl');
    writeFileSync(file, ['singlecall-1-exact', 'singlecall-1-4_random'].map((id) => JSON.stringify({ id, output: 'no call' })).join('\n'));
    return file;
  };

  let downloaded = '';
  test('a run with the data missing downloads both versions from their commits, verifies them, then reads them', async () => {
    downloaded = path.join(work, 'fc-downloaded');
    mkdirSync(downloaded);
    const db = freshDb();
    const args = ['run', 'functionchat/singlecall', '--bench-version', 'paper-2024-09', '-m', `replay:${replayFile()}`, '--exact-only', '--limit', '2'];
    const result = await run([...args, '--data-dir', downloaded, '--json', '--db', db], mirror);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /FunctionChat-Bench data not found in .*fc-downloaded[/\\]functionchat \(from --data-dir\); downloading it \(pinned by sha256\)/);
    assert.match(result.stderr, /FunctionChat-Bench: downloaded 17 file\(s\), derived 0, kept 0 already present/);
    const summary = JSON.parse(result.stdout) as { run: string; status: string; models: Record<string, { metrics: { pass: number; n: number } }> };
    assert.equal(summary.status, 'finished');
    assert.deepEqual(Object.values(summary.models).map((m) => [m.metrics.pass, m.metrics.n]), [[0, 2]]);
    assert.deepEqual(listFiles(downloaded, 'functionchat'), sharedFiles, 'the same files as the shared copy');
    for (const file of sharedFiles) assert.equal(fileSha(path.join(downloaded, file)), fileSha(path.join(dataDir, file)), file);
    assert.equal(server.count(`/repo/4c630984fd9aa54e2eb48ef53f2dc16d4d69d95a/data/FunctionChat-Singlecall.jsonl`), 1);
    // The run read the downloaded paper-era files: their checksums are the ones it recorded.
    const store = await openSqliteStore(db);
    try {
      const record = await store.getRun(summary.run);
      const key = 'functionchat/paper-2024-09/FunctionChat-Singlecall.jsonl';
      assert.equal(record?.provenance.datasetChecksums[key], fileSha(path.join(dataDir, key)));
    } finally {
      await store.close();
    }

    const verify = await run(['data', 'verify', 'functionchat', '--data-dir', downloaded, '--json']);
    assert.equal(verify.code, 0, verify.stderr);
    assert.deepEqual([...(JSON.parse(verify.stdout) as { verified: string[] }).verified].sort(), sharedFiles);
    // Present now: the next run downloads nothing.
    const before = server.requests.length;
    const again = await run([...args, '--data-dir', downloaded, '--db', freshDb()], mirror);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /downloading/);
    assert.equal(server.requests.length, before);
  });

  test('data fetch functionchat downloads only what is missing; data verify names a damaged file', async () => {
    const copy = path.join(work, 'fc-partial');
    cpSync(path.join(downloaded, 'functionchat'), path.join(copy, 'functionchat'), { recursive: true });
    rmSync(path.join(copy, 'functionchat/v2.0.0/rubric_slot.txt'));
    writeFileSync(path.join(copy, 'functionchat/NOTICE.md'), 'not the notice');

    const damaged = await run(['data', 'verify', 'functionchat', '--data-dir', copy]);
    assert.equal(damaged.code, 2);
    assert.match(damaged.stdout, /^ {2}missing {4}functionchat\/v2\.0\.0\/rubric_slot\.txt$/m);
    assert.match(damaged.stdout, /^ {2}mismatched functionchat\/NOTICE\.md: /m);
    assert.match(damaged.stderr, /^assay: functionchat in .* does not match its pinned checksums \(1 missing, 1 mismatched\); repair with: assay data fetch functionchat/);

    const before = server.requests.length;
    const result = await run(['data', 'fetch', 'functionchat', '--data-dir', copy, '--json'], mirror);
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout) as { dataset: string; downloaded: string[]; verified: string[] };
    assert.equal(out.dataset, 'functionchat');
    assert.deepEqual(out.downloaded, ['functionchat/NOTICE.md', 'functionchat/v2.0.0/rubric_slot.txt']);
    assert.equal(out.verified.length, sharedFiles.length - 2);
    assert.deepEqual(server.requests.slice(before).map((r) => decodeURIComponent(r)), [`/repo/${V2}/NOTICE.md`, `/repo/${V2}/data/rubric_slot.txt`]);
    assert.equal((await run(['data', 'verify', 'functionchat', '--data-dir', copy])).code, 0);
  });

  test('a corrupted upstream file is refused with its name, and no half-filled folder is left', async () => {
    const target = path.join(work, 'fc-corrupted');
    mkdirSync(target);
    const served = `/repo/${V2}/data/FunctionChat-Dialog.jsonl`;
    const corrupted = Buffer.from(readFileSync(path.join(dataDir, 'functionchat/v2.0.0/FunctionChat-Dialog.jsonl')));
    corrupted[200] = (corrupted[200] as number) ^ 1;
    server.overrides.set(served, corrupted);
    try {
      const result = await run(['run', 'functionchat/dialog', '-m', `replay:${replayFile()}`, '--exact-only', '--data-dir', target, '--db', freshDb()], mirror);
      assert.equal(result.code, 2);
      const errors = linesOf(result.stderr).filter((l) => l.startsWith('assay: '));
      assert.equal(errors.length, 1);
      assert.match(errors[0] as string, new RegExp(`^assay: checksum mismatch for ${server.baseUrl}${V2}/data/FunctionChat-Dialog\\.jsonl: expected [0-9a-f]{64}, got [0-9a-f]{64}; or point --data-dir / ASSAY_DATA_DIR at a folder containing functionchat/$`));
    } finally {
      server.overrides.delete(served);
    }
    assert.equal(existsSync(path.join(target, 'functionchat')), false);
  });
});
