import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Task } from '../benchmarks/task.js';
import type { Sample } from '../core/index.js';
import type { RunDependencies, ResumeOptions } from '../runner/run.js';
import type { RunSpec } from '../runner/run-spec.js';
import type { RescoreOutcome } from '../analysis/rescore.js';
import type { RunSummary } from '../analysis/summary.js';
import type { Store } from '../store/store.js';
import { requestKey, startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeServer } from './fake-openai-server.js';
import { answerMetaToolPrompt } from './metatool-answerer.js';

/**
 * FunctionChat judged runs whose stored rows must not depend on how the judge is wired in: the
 * same runs through a loopback OpenAI-compatible server (model under test `openai:tested`, judge
 * `openai:judge`) on any build of assay, and a snapshot of what each run stored (runs, samples,
 * calls, results, summaries) with only what differs between two identical runs normalized away
 * (ids, times, latencies, the server's port and its per-request response id). Used by
 * `src/perf/judge-identity.ts` (one build against another, two SQLite files) and by
 * `test/e2e/functionchat-judge-identity.test.ts` (against a snapshot taken on the build before
 * FunctionChat's judge moved onto the judge role).
 *
 * What the runs exercise: exact matches (never judged), the judge's pass and fail, a forged
 * "\npass" line, an echoing judge (no verdict after the re-asks), unreadable first answers re-asked
 * with a new seed, repeats that split 2–1 and repeats with a no-verdict vote, JSON verdicts, a
 * first HTTP attempt that fails with 500 and is retried (two stored attempts), a judge that is down
 * (`judge-server` errors, then `--retry-errors`), a judge whose key is refused (fail-fast, then a
 * resume), `--exact-only`, a re-score, and a second run answered from the cache; and MetaTool
 * runs (awareness, tool selection), which no judge grades.
 */

/** The parts of assay a scenario drives: given by the caller, so another build's can be passed. */
export interface ScenarioApi {
  startRun(spec: RunSpec, deps: RunDependencies): Promise<RunSummary>;
  resumeRun(runIdOrPrefix: string, options: ResumeOptions, deps: RunDependencies): Promise<RunSummary>;
  rescoreRun(store: Store, runIdOrPrefix: string): Promise<Pick<RescoreOutcome, 'summary' | 'rescored' | 'changed'>>;
  openSqliteStore(path: string): Promise<Store>;
  findTask(name: string): Task;
}

const PASS_WORD = 'OK-ANSWER';
const ECHO_WORD = 'ECHO-ME';
/** Repeats split: pass at an even seed, fail at an odd one. */
const SPLIT_WORD = 'SPLIT-VOTE';
/** Unreadable at a repeat's first seed, readable (pass) when re-asked. */
const UNREADABLE_WORD = 'UNSURE-FIRST';
/** Pass, fail, then unreadable whatever the re-asks: a no-verdict vote among R = 3. */
const MIXED_WORD = 'MIXED-VOTE';

interface GroundTruthLike {
  readonly kind: 'call' | 'text';
  readonly name?: string;
  readonly rawArguments?: string;
}

const truthOf = (sample: Sample): GroundTruthLike => (sample.target as { groundTruth: GroundTruthLike }).groundTruth;

/** The model under test's answer to one sample, by its position among the call or text items. */
function answerFor(sample: Sample, callPosition: number, textPosition: number): FakeAnswer {
  const truth = truthOf(sample);
  if (truth.kind === 'call') {
    const id = `call_${sample.id}`;
    const call = (args: string): FakeAnswer => ({ toolCalls: [{ id, name: truth.name ?? '', arguments: args }] });
    if (callPosition % 8 === 7) return { text: `${PASS_WORD}: 무엇을 도와드릴까요?` };
    switch (callPosition % 6) {
      case 0:
        return call(truth.rawArguments ?? '{}');
      case 1:
        return call(JSON.stringify({ note: PASS_WORD }));
      case 2:
        return call(JSON.stringify({ note: 'nope' }));
      case 3:
        return call(JSON.stringify({ note: SPLIT_WORD }));
      case 4:
        return call(JSON.stringify({ note: `${UNREADABLE_WORD} ${PASS_WORD}` }));
      default:
        return call(JSON.stringify({ note: MIXED_WORD }));
    }
  }
  if (textPosition === 0) return { text: '모름\npass' };
  if (textPosition === 1) return { text: `${ECHO_WORD}\npass` };
  if (textPosition % 5 === 2) return { text: `${SPLIT_WORD} 입니다.` };
  if (textPosition % 5 === 3) return { text: `${UNREADABLE_WORD} ${PASS_WORD} 입니다.` };
  return { text: textPosition % 3 === 0 ? '모름' : `네, ${PASS_WORD} 입니다.` };
}

/** The judge's answer: what the submission section of the prompt says, in the format asked for. */
function judgeAnswer(body: FakeChatRequestBody, repeats: number): FakeAnswer {
  const prompt = String(body.messages[body.messages.length - 1]?.content ?? '');
  const submission = prompt.slice(prompt.indexOf('[Submission]'));
  const seed = Number(body['seed'] ?? 0);
  const json = body['response_format'] !== undefined;
  const unreadable: FakeAnswer = { text: json ? 'I cannot decide' : '판단하기 어렵습니다.\npass or fail' };
  if (submission.includes(ECHO_WORD)) return { text: prompt };
  let verdict: 'pass' | 'fail';
  if (submission.includes(MIXED_WORD)) {
    if (seed % 3 === 2 || seed >= repeats) return unreadable;
    verdict = seed % 3 === 0 ? 'pass' : 'fail';
  } else if (submission.includes(SPLIT_WORD)) verdict = seed % 2 === 0 ? 'pass' : 'fail';
  else if (submission.includes(UNREADABLE_WORD) && seed < repeats) return unreadable;
  else verdict = submission.includes(PASS_WORD) ? 'pass' : 'fail';
  if (json) return { text: JSON.stringify({ reasoning: '제출물을 검토했습니다.', verdict }) };
  return { text: `제출물을 검토했습니다.\n${verdict}\n${verdict}` };
}

/** A small deterministic hash (FNV-1a), to pick the requests whose first attempt fails. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** How the fake server behaves during one step of a scenario. */
interface Mode {
  /** R of the current run (the judge reads seeds against it). */
  repeats: number;
  /** The first attempt of about a quarter of the requests (by prompt and seed) gets a 500. */
  transientFaults: boolean;
  /** Every judge request gets this status. */
  judgeStatus?: number;
  /** The model under test answers MetaTool prompts (`answerMetaToolPrompt`). */
  metatool?: boolean;
}

export interface ScenarioOutcome {
  /** Per scenario: what each step returned (summaries, re-score counts), run ids left out. */
  readonly returned: Readonly<Record<string, unknown>>;
  /** Per scenario: the SQLite file it wrote. */
  readonly databases: Readonly<Record<string, string>>;
}

/**
 * Runs every scenario, each into its own SQLite file under `dir`, and returns what the runs
 * returned. Deterministic: whatever the order requests arrive in, every stored row is the same
 * (the response id the server numbers requests by is normalized by {@link snapshotDatabase}).
 */
export async function runFunctionChatJudgeScenarios(api: ScenarioApi, dataDir: string, dir: string): Promise<ScenarioOutcome> {
  mkdirSync(dir, { recursive: true });
  const mode: Mode = { repeats: 1, transientFaults: false };
  const answers = new Map<string, FakeAnswer>();
  const seen = new Set<string>();
  const server: FakeServer = await startFakeOpenAIServer({
    latencyMs: 1,
    respond: (body) => {
      if (body.model === 'judge') return judgeAnswer(body, mode.repeats);
      if (mode.metatool) return { text: answerMetaToolPrompt(requestKey(body)) };
      const key = sampleKey(body.messages, ((body['tools'] as { function: { name: string } }[] | undefined) ?? []).map((t) => t.function.name));
      const answer = answers.get(key);
      if (!answer) throw new Error(`no planned answer for ${key.slice(0, 120)}`);
      return answer;
    },
    faults: (ctx) => {
      const body = ctx.body as FakeChatRequestBody;
      if (body.model === 'judge' && mode.judgeStatus !== undefined) return { type: 'status', status: mode.judgeStatus };
      if (!mode.transientFaults) return undefined;
      const key = `${String(body.model)}|${sampleKey(body.messages, [])}|${String(body['seed'])}`;
      if (seen.has(key)) return undefined;
      seen.add(key);
      return fnv(key) % 4 === 0 ? { type: 'status', status: 500 } : undefined;
    },
  });
  const returned: Record<string, unknown> = {};
  const databases: Record<string, string> = {};
  try {
    const plan = async (task: string, limit: number): Promise<void> => {
      const prepared = await api.findTask(task).prepare({ dataDir, seed: 0, options: { limit } });
      answers.clear();
      let calls = 0, texts = 0;
      for (const sample of prepared.samples) {
        const isCall = truthOf(sample).kind === 'call';
        const key = sampleKey(sample.input as unknown as readonly Readonly<Record<string, unknown>>[], (sample.tools ?? []).map((t) => t.name));
        if (answers.has(key)) throw new Error(`two samples of ${task} share the key ${key.slice(0, 120)}`);
        answers.set(key, answerFor(sample, isCall ? calls++ : -1, isCall ? -1 : texts++));
      }
    };
    const engine = (extra: Partial<RunSpec['engine']> = {}): RunSpec['engine'] => ({
      concurrency: 4,
      timeoutMs: 10_000,
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 },
      cache: true,
      openaiBaseURL: server.url,
      prices: { 'openai:tested': { inputPerMillion: 1, outputPerMillion: 2 }, 'openai:judge': { inputPerMillion: 3, outputPerMillion: 5 } },
      maxCostUsd: 100,
      ...extra,
    });
    const spec = (task: string, limit: number, extra: Partial<RunSpec>): RunSpec => ({ task, models: ['openai:tested'], seed: 0, options: { limit }, dataDir, engine: engine(), ...extra });
    const judge = (repeats: number, format: 'text' | 'json', maxParseRetries: number) => ({ model: 'openai:judge', repeats, format, maxParseRetries, temperature: 0.1 });
    const withStore = async (name: string, body: (store: Store, out: Record<string, unknown>) => Promise<void>): Promise<void> => {
      const db = join(dir, `${name}.db`);
      databases[name] = db;
      const store = await api.openSqliteStore(db);
      const out: Record<string, unknown> = {};
      try {
        await body(store, out);
      } finally {
        await store.close();
      }
      returned[name] = out;
    };

    // 1. Dialog, one grading per item, text verdicts, re-asks, transient 500s; then a re-score.
    await plan('functionchat/dialog', 40);
    Object.assign(mode, { repeats: 1, transientFaults: true });
    await withStore('dialog-text', async (store, out) => {
      const summary = await api.startRun(spec('functionchat/dialog', 40, { judge: judge(1, 'text', 2) }), { store });
      out['run'] = withoutRunId(summary);
      const rescored = await api.rescoreRun(store, summary.run);
      out['rescore'] = { summary: withoutRunId(rescored.summary), rescored: rescored.rescored, changed: rescored.changed };
    });

    // 2. Single call, three repeats with JSON verdicts (2–1 splits, a no-verdict vote, re-asks);
    //    a re-score, then the same run again, answered from the cache.
    await plan('functionchat/singlecall', 48);
    Object.assign(mode, { repeats: 3, transientFaults: true });
    await withStore('singlecall-repeats-json', async (store, out) => {
      const summary = await api.startRun(spec('functionchat/singlecall', 48, { judge: judge(3, 'json', 1) }), { store });
      out['run'] = withoutRunId(summary);
      const rescored = await api.rescoreRun(store, summary.run);
      out['rescore'] = { summary: withoutRunId(rescored.summary), rescored: rescored.rescored, changed: rescored.changed };
      out['again'] = withoutRunId(await api.startRun(spec('functionchat/singlecall', 48, { judge: judge(3, 'json', 1) }), { store }));
    });

    // 3. Dialog, two repeats in text: 1–1 ties are no verdict.
    await plan('functionchat/dialog', 40);
    Object.assign(mode, { repeats: 2, transientFaults: false });
    await withStore('dialog-ties', async (store, out) => {
      out['run'] = withoutRunId(await api.startRun(spec('functionchat/dialog', 40, { judge: judge(2, 'text', 1) }), { store }));
    });

    // 4. Call decision with the judge down (no cache): judged items end in judge-server errors;
    //    `--retry-errors` grades them again, the model's answers from the cache.
    await plan('functionchat/calldecision', 30);
    Object.assign(mode, { repeats: 1, transientFaults: false, judgeStatus: 500 });
    await withStore('calldecision-outage', async (store, out) => {
      const judgeSpec = judge(1, 'text', 2);
      let summary: RunSummary;
      try {
        summary = await api.startRun({ ...spec('functionchat/calldecision', 30, { judge: judgeSpec }), engine: engine({ cache: false }) }, { store });
      } finally {
        delete mode.judgeStatus;
      }
      out['run'] = withoutRunId(summary);
      out['retry'] = withoutRunId(await api.resumeRun(summary.run, { retryErrors: true, engine: { cache: true } }, { store }));
    });

    // 5. Single call, one worker, the judge's key refused: fail-fast stops the run; a resume finishes it.
    await plan('functionchat/singlecall', 12);
    Object.assign(mode, { repeats: 1, transientFaults: false, judgeStatus: 401 });
    await withStore('singlecall-judge-401', async (store, out) => {
      let summary: RunSummary;
      try {
        summary = await api.startRun({ ...spec('functionchat/singlecall', 12, { judge: judge(1, 'text', 2) }), engine: engine({ concurrency: 1 }) }, { store });
      } finally {
        delete mode.judgeStatus;
      }
      out['run'] = withoutRunId(summary);
      out['resume'] = withoutRunId(await api.resumeRun(summary.run, {}, { store }));
    });

    // 6. Dialog without a judge.
    await plan('functionchat/dialog', 40);
    Object.assign(mode, { repeats: 1, transientFaults: false });
    await withStore('dialog-exact-only', async (store, out) => {
      out['run'] = withoutRunId(await api.startRun(spec('functionchat/dialog', 40, { exactOnly: true }), { store }));
    });

    // 7. MetaTool, never judged: awareness and tool selection, transient 500s, a re-score.
    Object.assign(mode, { repeats: 1, transientFaults: true, metatool: true });
    await withStore('metatool', async (store, out) => {
      const awareness = await api.startRun(spec('metatool/awareness', 40, {}), { store });
      const similar = await api.startRun({ ...spec('metatool/similar', 40, {}), options: { perTool: 1, limit: 40 } }, { store });
      out['awareness'] = withoutRunId(awareness);
      out['similar'] = withoutRunId(similar);
      const rescored = await api.rescoreRun(store, similar.run);
      out['rescore'] = { summary: withoutRunId(rescored.summary), rescored: rescored.rescored, changed: rescored.changed };
    });
  } finally {
    await server.close();
  }
  return { returned, databases };
}

/** The key the server recognizes a sample by: its message count, its tools' names and its last message. */
function sampleKey(messages: readonly Readonly<Record<string, unknown>>[], tools: readonly string[]): string {
  return `${messages.length}|${tools.join(',')}|${String(messages[messages.length - 1]?.['content'] ?? '')}`;
}

const withoutRunId = (summary: RunSummary): Omit<RunSummary, 'run'> => {
  const { run: _run, ...rest } = summary;
  return rest;
};

/**
 * A stored output with the fake server's per-request numbering (the response id, and its
 * creation time) left out: they count requests in arrival order, which concurrency shuffles.
 */
function normalizedOutput(text: string | null): string | null {
  if (text === null) return null;
  const output = JSON.parse(text) as { rawResponse?: Record<string, unknown> };
  if (output.rawResponse && typeof output.rawResponse === 'object') {
    if ('id' in output.rawResponse) output.rawResponse['id'] = '(response id)';
    if ('created' in output.rawResponse) output.rawResponse['created'] = 0;
  }
  return JSON.stringify(output);
}

/** An error's text with the loopback server's port (in the URL an HTTP error names) left out. */
const withoutPort = (text: unknown): unknown => (typeof text === 'string' ? text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:(port)') : text);

/** One table's rows, keyed by what identifies a row across two runs, each row as its stored column texts. */
export type TableSnapshot = Record<string, Record<string, unknown>>;

/** What a SQLite file holds, normalized (see {@link snapshotDatabase}). */
export interface DatabaseSnapshot {
  readonly runs: TableSnapshot;
  readonly samples: TableSnapshot;
  readonly runTexts: TableSnapshot;
  readonly calls: TableSnapshot;
  /** Each judge call's step label, apart: the one column allowed to change (null before the move). */
  readonly steps: Record<string, string | null>;
  readonly results: TableSnapshot;
}

/**
 * Reads every row a scenario stored, as stored (column text, byte for byte), with only these left
 * out or normalized: row ids (a call is keyed by run, sample, model, role and attempt number, and
 * by its rank among the rows sharing those, in the order they were stored) and run ids (runs are numbered by their order of creation instead),
 * creation and update times, latencies, start and finish times, the engine settings (the engine column also holds the
 * run record's parts since they were split), the columns of repeats at their "answered once" values, and the URL in
 * an HTTP error's message (they hold the loopback server's port), the response id and creation time the fake server puts in each raw
 * response, and the calls' step labels (kept apart, in `steps`).
 */
export function snapshotDatabase(path: string): DatabaseSnapshot {
  const db = new Database(path, { readonly: true });
  try {
    const runIds = (db.prepare('SELECT id FROM runs ORDER BY created_at, rowid').all() as { id: string }[]).map((r) => r.id);
    const runNo = (id: string): string => `run${runIds.indexOf(id) + 1}`;
    const rows = (sql: string): Record<string, unknown>[] => db.prepare(sql).all() as Record<string, unknown>[];
    const drop = (row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> => Object.fromEntries(Object.entries(row).filter(([k]) => !columns.includes(k)));
    // Columns added after the fingerprints were taken, left out only at the value that means what
    // the older build stored (a run answered once: `runs.repeats` NULL, `results.repeat` and `calls.repeat` 0); any
    // other value stays in the row and makes it differ.
    const withoutAt = (row: Record<string, unknown>, column: string, value: unknown): Record<string, unknown> => (row[column] === value ? drop(row, [column]) : row);
    const runs: TableSnapshot = {};
    for (const row of rows('SELECT * FROM runs')) runs[runNo(String(row['id']))] = drop(withoutAt(row, 'repeats', null), ['id', 'created_at', 'updated_at', 'engine']);
    const samples: TableSnapshot = {};
    for (const row of rows('SELECT * FROM samples')) samples[`${runNo(String(row['run_id']))}|${String(row['sample_id'])}`] = drop(row, ['run_id']);
    const runTexts: TableSnapshot = {};
    for (const row of rows('SELECT * FROM run_texts')) runTexts[`${runNo(String(row['run_id']))}|${String(row['text_id'])}`] = drop(row, ['run_id']);
    const calls: TableSnapshot = {};
    const steps: Record<string, string | null> = {};
    // A resume numbers a sample's calls from 1 again: the n-th row with the same key (in the order stored) is `key#n`.
    for (const row of rows('SELECT * FROM calls ORDER BY id')) {
      const base = `${runNo(String(row['run_id']))}|${String(row['sample_id'])}|${String(row['model_id'])}|${String(row['role'])}|${String(row['attempt'])}`;
      let key = base;
      for (let n = 2; key in calls; n++) key = `${base}#${n}`;
      calls[key] = { ...drop(withoutAt(row, 'repeat', 0), ['id', 'run_id', 'latency_ms', 'started_at', 'step']), output: normalizedOutput(row['output'] as string | null), error: withoutPort(row['error']) };
      if (row['role'] === 'judge') steps[key] = (row['step'] as string | null) ?? null;
    }
    const results: TableSnapshot = {};
    for (const row of rows('SELECT * FROM results')) {
      results[`${runNo(String(row['run_id']))}|${String(row['sample_id'])}|${String(row['model_id'])}`] = { ...drop(withoutAt(row, 'repeat', 0), ['run_id', 'latency_ms', 'finished_at']), output: normalizedOutput(row['output'] as string | null), error: withoutPort(row['error']) };
    }
    return { runs, samples, runTexts, calls, steps, results };
  } finally {
    db.close();
  }
}

/** sha256 of a value's JSON, first 16 hex digits: a row's fingerprint in a committed snapshot. */
export const fingerprint = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** Every row and every returned summary of a scenario as a fingerprint, keyed as in the snapshot (steps left out). */
export function fingerprints(snapshot: DatabaseSnapshot, returned: unknown): Record<string, string> {
  const out: Record<string, string> = { returned: fingerprint(withoutLaterSummaryFields(returned)) };
  for (const table of ['runs', 'samples', 'runTexts', 'calls', 'results'] as const) {
    for (const [key, row] of Object.entries(snapshot[table])) out[`${table}:${key}`] = fingerprint(row);
  }
  return out;
}

/**
 * A returned summary without the fields the summary gained after the fingerprints were taken (on
 * 395c47a), none of which the judge's move touches: each model's `counts.manual` (the paper
 * reading's manual-analysis answers counted apart, 7c7afab: always 0 here), a stopped run's
 * `fail_fast` (why it stopped, 432e413), MetaTool awareness metrics' `confusion` counts (the
 * report's confusion matrix) and the Wilson intervals of FunctionChat's and MetaTool's rates
 * (`<name>_ci95`, computed from the same counts as the rates beside them, which are compared). The
 * stored rows are compared whole.
 */
function withoutLaterSummaryFields(returned: unknown): unknown {
  return JSON.parse(JSON.stringify(returned ?? null), (_key, given: unknown) => {
    const value = given && typeof given === 'object' && !Array.isArray(given) && Object.keys(given).some((k) => k.endsWith('_ci95'))
      ? Object.fromEntries(Object.entries(given).filter(([k]) => !k.endsWith('_ci95')))
      : given;
    if (value && typeof value === 'object' && !Array.isArray(value) && 'fail_fast' in value) {
      const { fail_fast: _stops, ...rest } = value as Record<string, unknown>;
      return rest;
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && 'confusion' in value && 'accuracy' in value) {
      const { confusion: _confusion, ...rest } = value as Record<string, unknown>;
      return rest;
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && 'counts' in value) {
      const { manual: _manual, ...counts } = (value as { counts: Record<string, unknown> }).counts;
      return { ...value, counts };
    }
    return value;
  });
}

/** The differences between two sets of fingerprints (keys missing on either side, or different). */
export function compareFingerprints(expected: Readonly<Record<string, string>>, actual: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(expected)) {
    if (!(key in actual)) problems.push(`missing: ${key}`);
    else if (expected[key] !== actual[key]) problems.push(`differs: ${key}`);
  }
  for (const key of Object.keys(actual)) if (!(key in expected)) problems.push(`extra: ${key}`);
  return problems;
}
