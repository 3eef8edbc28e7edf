// A synthetic FunctionChat single-call run of N samples written straight through the store API
// (one model under test, a judge; ~70% pass, ~20% fail with a judge call, ~8% no verdict with a
// re-ask, ~2% server errors; no model is called): what the report and viewer benchmarks measure.
import { FUNCTIONCHAT_TASK_VERSION } from '../benchmarks/functionchat/tasks.js';
import { system, user, type GenerateResult, type Sample, type Score } from '../core/index.js';
import type { CallRecord, ResultRecord, RunRecord } from '../store/records.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { toolkitVersion } from '../version.js';

const MODEL = 'openai:bench-model';
const JUDGE = 'openai:bench-judge';
const TOOLS_TYPES = ['exact', '4_random', '4_close', '8_random', '8_close'] as const;
const SYSTEM_PROMPT = 'You are a helpful assistant with access to functions. Use them when a request needs them; otherwise answer in words. '.repeat(4);

const tool = (name: string) => ({ name, description: `${name}: does one thing with its arguments.`, parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] } });

function sampleOf(i: number): Sample {
  const toolsType = TOOLS_TYPES[i % TOOLS_TYPES.length] as string;
  const count = toolsType === 'exact' ? 1 : Number(toolsType[0]);
  const name = `function_${i % 25}`;
  return {
    id: `singlecall-${i}-${toolsType}`,
    input: [system(SYSTEM_PROMPT), user(`Please look up item number ${i} for me and tell me what you find.`)],
    tools: Array.from({ length: count }, (_, k) => tool(k === 0 ? name : `other_${(i + k) % 25}`)),
    target: { groundTruth: { kind: 'call', name, rawArguments: `{"query":"item ${i}"}`, arguments: { query: `item ${i}` } }, acceptable: { kind: 'none' }, acceptableText: null },
    metadata: { task: 'singlecall', bench_version: 'v1.0.0', type_of_output: 'call', serial_num: i, tools_type: toolsType, function_num: i % 25, function_name: name },
  };
}

const output = (text: string, call?: { name: string; args: string }): GenerateResult => ({
  text,
  toolCalls: call ? [{ id: 'call_1', name: call.name, arguments: JSON.parse(call.args) as unknown, rawArguments: call.args }] : [],
  finishReason: { unified: call ? 'tool-calls' : 'stop' },
  usage: { inputTokens: 180, outputTokens: 24 },
  warnings: [],
});

function outcomeOf(runId: string, sample: Sample, i: number): { calls: CallRecord[]; result: ResultRecord } {
  const base = { runId, sampleId: sample.id, modelId: MODEL, cacheKey: null, costUsd: 0.0001, latencyMs: 420, startedAt: new Date(0).toISOString(), usage: { inputTokens: 180, outputTokens: 24 } };
  const testCall = (out: GenerateResult | null, error: CallRecord['error'] = null): CallRecord => ({ ...base, role: 'test', attempt: 1, request: { messages: sample.input, tools: sample.tools, settings: { temperature: 0.1 } }, output: out, error });
  const roll = i % 100;
  const name = (sample.target as { groundTruth: { name: string } }).groundTruth.name;
  if (roll < 2) {
    const error = { kind: 'server', message: 'HTTP 503: overloaded' };
    return { calls: [testCall(null, error)], result: { ...base, status: 'error', output: null, score: null, error, cached: false, attempts: 1, finishedAt: base.startedAt } };
  }
  if (roll < 72) {
    const out = output('', { name, args: `{"query":"item ${i}"}` });
    return { calls: [testCall(out)], result: { ...base, status: 'done', output: out, score: { value: true, answer: [name], explanation: 'exact match', metadata: { errors: [] } }, error: null, cached: false, attempts: 1, finishedAt: base.startedAt } };
  }
  const noVerdict = roll >= 92;
  const out = output(noVerdict ? `I think item ${i} is about <b>something</b>.` : '', noVerdict ? undefined : { name, args: `{"query":"item ${i}","limit":3}` });
  const reply = noVerdict ? ['I cannot decide.', 'Still unsure.'] : ['The arguments add a limit the user never asked for.\nfail'];
  const judgeCalls: CallRecord[] = reply.map((text, k) => ({ ...base, role: 'judge', actor: JUDGE, step: k === 0 ? 'verdict' : `verdict#${k + 1}`, attempt: 2 + k, request: { messages: [user(`[Rubric] … [Submission] ${out.text || out.toolCalls[0]?.rawArguments}`)], settings: { temperature: 0.1, seed: k } }, output: output(text), error: null }));
  const score: Score = {
    value: noVerdict ? null : false,
    answer: out.toolCalls.map((c) => c.name),
    explanation: noVerdict ? 'judge: no verdict — unreadable after 1 re-ask' : 'judge: fail (1/1)',
    metadata: {
      errors: noVerdict ? ['no_call'] : ['extra_key'],
      deterministic: { value: false },
      judge: { model: JUDGE, rubric: 'call', rubricSha256: '0'.repeat(64), votes: [noVerdict ? null : false], agreement: 1, responses: [reply.at(-1)], calls: reply.length, inputTokens: 400, outputTokens: 30, costUsd: 0.0002 },
    },
  };
  return { calls: [testCall(out), ...judgeCalls], result: { ...base, status: 'done', output: out, score, error: null, cached: false, attempts: 1 + reply.length, finishedAt: base.startedAt } };
}

/** Writes the run into the SQLite file `db` (id `bench-report-<n>`). */
export async function writeStore(db: string, n: number): Promise<{ runId: string; ms: number }> {
  const started = performance.now();
  const store = await openSqliteStore(db);
  const runId = `bench-report-${n}`;
  const samples = Array.from({ length: n }, (_, i) => sampleOf(i));
  const run: RunRecord = {
    id: runId,
    task: 'functionchat/singlecall',
    taskVersion: FUNCTIONCHAT_TASK_VERSION,
    status: 'finished',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T02:13:00.000Z',
    models: [MODEL],
    settings: { temperature: 0.1 },
    seed: 0,
    options: {},
    engine: { concurrency: 64 },
    provenance: { datasetChecksums: { 'functionchat/bench.jsonl': 'f'.repeat(64) }, promptVersion: 'bench', toolkitVersion },
    events: [],
    judge: { model: JUDGE, repeats: 1, format: 'text', maxParseRetries: 1, temperature: 0.1, selfGrading: false },
    sampleCount: n,
  };
  await store.createRun(run, samples);
  for (let start = 0; start < n; start += 2000) {
    await Promise.all(samples.slice(start, start + 2000).map((sample, k) => {
      const { calls, result } = outcomeOf(runId, sample, start + k);
      return store.saveOutcome(calls, result);
    }));
  }
  await store.close();
  return { runId, ms: performance.now() - started };
}
