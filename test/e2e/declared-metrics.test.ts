import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { undeclaredMetrics } from '../../src/benchmarks/metric-declarations.js';
import { allTasks } from '../../src/benchmarks/registry.js';
import type { MetricDeclaration } from '../../src/benchmarks/task.js';
import type { AnswerParserName } from '../../src/core/index.js';
import { DEMO_TASKS } from '../../src/demo/demo-tasks.js';
import { startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import type { RunSummary } from '../../src/analysis/summary.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { assay } from '../../src/testing/cli-harness.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody } from '../../src/testing/fake-openai-server.js';
import { answerHarmBenchRequest } from '../../src/testing/harm-bench-answerer.js';
import { answerMetaToolPrompt } from '../../src/testing/metatool-answerer.js';
import { writeSyntheticMetaTool } from '../../src/testing/synthetic-metatool.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { packageRoot } from '../../src/version.js';

/**
 * Every registered task, run here through loopback servers with scripted answers (the demo's
 * roles for the tasks `assay demo` plays, a small synthetic MetaTool set, the harm bench's
 * roles for the other harm resources; MetaTool's other tasks and FunctionChat on the benchmark
 * data, skipped without it), each MetaTool task under both answer readings: `assay show --json`
 * of each run carries `metric_declarations`, and they declare every metric every model has —
 * each key, each part of a breakdown, each interval — under the reading the run was made with.
 */
type Respond = (body: FakeChatRequestBody) => FakeAnswer;
interface Plan {
  readonly spec: Omit<RunSpec, 'engine'>;
  readonly respond: Respond;
  readonly skip?: string | false;
}

const ENGINE = { concurrency: 2, timeoutMs: 10_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, failFast: false };
const JUDGE = { model: 'openai:judge', repeats: 2, format: 'json' as const, maxParseRetries: 1, temperature: 0 };

let dir: string;
let db: string;
let synthetic: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-declared-metrics-'));
  db = join(dir, 'runs.db');
  synthetic = writeSyntheticMetaTool(join(dir, 'synthetic'), { tools: 20, queriesPerTool: 1, awarenessItems: 6 }).dir;
});
after(() => rmSync(dir, { recursive: true, force: true }));

const lastUser = (body: FakeChatRequestBody): string => String([...body.messages].reverse().find((m) => m['role'] === 'user')?.['content'] ?? '');
const asOpenAI = (id: string): string => id.replace(/^demo:/, 'openai:');

/** FunctionChat: a call of the first tool offered, a text the judge passes, a text it fails. */
function functionChatRoles(): Respond {
  let calls = 0;
  return (body) => {
    if (body.model === 'judge') return { text: `Reasoning.\n${String(body.messages.at(-1)?.content).includes('JUDGE-PASS') ? 'pass' : 'fail'}` };
    const i = calls++;
    const tools = (body['tools'] as { function: { name: string } }[] | undefined) ?? [];
    if (i % 3 === 0 && tools[0]) return { toolCalls: [{ name: tools[0].function.name, arguments: '{}' }] };
    return { text: i % 3 === 1 ? 'JUDGE-PASS: done' : 'I cannot do that' };
  };
}

function planFor(task: string, parser: AnswerParserName | undefined): Plan {
  const parserOption = parser ? { parser } : {};
  const demo = DEMO_TASKS.find((d) => d.task === task);
  if (demo && !task.startsWith('metatool/')) {
    return {
      spec: {
        task,
        models: demo.models.map(asOpenAI),
        seed: 0,
        options: demo.options,
        dataDir: dir,
        ...(demo.judge ? { judge: { ...JUDGE, format: demo.judge.format } } : {}),
        ...(demo.userModel ? { userModel: asOpenAI(demo.userModel) } : {}),
      },
      respond: demo.respond,
    };
  }
  if (task.startsWith('harm/')) {
    return { spec: { task, models: ['openai:sut'], userModel: 'openai:user', judge: JUDGE, seed: 0, options: { limit: 4 }, dataDir: dir }, respond: answerHarmBenchRequest };
  }
  if (task === 'metatool/awareness' || task === 'metatool/similar') {
    return {
      spec: { task, models: ['openai:picker'], seed: 0, options: { limit: 6, ...parserOption }, dataDir: synthetic, allowModifiedData: true },
      respond: (body) => ({ text: answerMetaToolPrompt(lastUser(body)) }),
    };
  }
  if (task.startsWith('metatool/')) {
    return {
      spec: { task, models: ['openai:picker'], seed: 0, options: { limit: 6, ...parserOption }, dataDir: testDataDir() },
      respond: (body) => ({ text: answerMetaToolPrompt(lastUser(body)) }),
      skip: needsData('metatool'),
    };
  }
  if (task.startsWith('functionchat/')) {
    return { spec: { task, models: ['openai:fc'], seed: 0, options: { limit: 6 }, dataDir: testDataDir(), judge: { ...JUDGE, repeats: 1, format: 'text' } }, respond: functionChatRoles(), skip: needsData('functionchat') };
  }
  if (task === 'cases') {
    // The shipped example (every kind but regex's flags): the model answers "30 days" or calls getOrder; the judge passes.
    return {
      spec: { task, models: ['openai:bot'], seed: 0, options: { task: { file: join(packageRoot, 'examples', 'cases', 'support.yaml') } }, dataDir: dir, judge: JUDGE },
      respond: (body) => {
        if (body.model === 'judge') return { text: JSON.stringify({ reasoning: 'It meets the criterion.', verdict: 'pass' }) };
        if (body['tools']) return { toolCalls: [{ name: 'getOrder', arguments: '{"orderId": "A-17"}' }] };
        return { text: 'You have 30 days.' };
      },
    };
  }
  throw new Error(`no plan for ${task}: add one here`);
}

for (const task of allTasks) {
  for (const parser of task.answerParsers ?? [undefined]) {
    const plan = planFor(task.name, parser);
    test(`${task.name}${parser ? ` --parser ${parser}` : ''}: show --json declares every metric of every model`, { skip: plan.skip ?? false }, async () => {
      const server = await startFakeOpenAIServer({ respond: plan.respond });
      const store = await openSqliteStore(db);
      let run: string;
      try {
        run = (await startRun({ ...plan.spec, engine: { ...ENGINE, openaiBaseURL: server.url } }, { store })).run;
      } finally {
        await store.close();
        await server.close();
      }
      const shown = await assay(['show', run, '--json', '--db', db]);
      assert.equal(shown.code, 0, shown.stderr);
      const json = JSON.parse(shown.stdout) as RunSummary & { metric_declarations: MetricDeclaration[] };
      const declared = json.metric_declarations;
      assert.ok(Array.isArray(declared) && declared.length > 0, 'show --json carries metric_declarations');
      let numbers = 0;
      for (const [model, { metrics, counts }] of Object.entries(json.models)) {
        assert.ok(counts.done > 0, `${model} finished samples`);
        numbers += Object.keys(metrics).length;
        assert.deepEqual(undeclaredMetrics(declared, metrics, parser), [], `${task.name} ${model}: metrics show --json does not declare`);
        // And only the metrics the run has are declared.
        for (const d of declared) assert.ok(Object.values(json.models).some((m) => d.name in m.metrics), `${d.name} is declared but no model has it`);
      }
      assert.ok(numbers > 0);
    });
  }
}
