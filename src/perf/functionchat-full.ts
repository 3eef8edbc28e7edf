// The whole of FunctionChat-Bench (500 single-call + 200 dialog + 606 call-decision items) with a
// replayed model under test and a scripted judge: prints each task's tables, the wall time and
// the peak memory. `npm run bench:functionchat` (needs the data in $ASSAY_DATA_DIR or ../shared/datasets).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTask } from '../benchmarks/registry.js';
import type { Sample } from '../core/index.js';
import type { GroundTruth } from '../datasets/functionchat/index.js';
import { createScriptedProvider } from '../models/providers/scripted/index.js';
import { renderSummary } from '../report/console.js';
import { runMetricDeclarationsOf } from '../report/metric-format.js';
import { startRun } from '../runner/run.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { testDataDir } from '../testing/test-data.js';

const TASKS = ['functionchat/singlecall', 'functionchat/dialog', 'functionchat/calldecision'] as const;
const dataDir = process.env['ASSAY_DATA_DIR'] ?? testDataDir();

/**
 * The replayed "model": the ground truth for most items; every 7th call item (index ≡ 3 mod 7, so every tool-list type gets some) calls the right
 * function with an empty argument object, every 7th text item answers in English. So the
 * exact-match path, the judge path and both verdicts all occur.
 */
function replayLine(sample: Sample, index: number): string {
  const truth = (sample.target as { groundTruth: GroundTruth }).groundTruth;
  if (truth.kind === 'call') {
    const args = index % 7 === 3 ? '{}' : truth.rawArguments;
    return JSON.stringify({ id: sample.id, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: truth.name, arguments: args } }] } });
  }
  return JSON.stringify({ id: sample.id, output: index % 7 === 6 ? 'Sorry, I cannot help with that.' : truth.content });
}

/** The scripted judge: passes a submission that contains Korean text or a non-empty argument object. */
const judge = createScriptedProvider({
  id: 'scripted:judge',
  respond: (request) => {
    const prompt = request.messages[request.messages.length - 1]?.content ?? '';
    const submission = prompt.slice(prompt.indexOf('[Submission]'));
    const pass = /[가-힣]/.test(submission) && !submission.includes('"arguments": "{}"');
    return `제출물을 검토했습니다.\n${pass ? 'pass' : 'fail'}`;
  },
});

const dir = mkdtempSync(join(tmpdir(), 'assay-fc-bench-'));
const store = await openSqliteStore(join(dir, 'fc.db'));
const started = performance.now();
const cpuBefore = process.cpuUsage();
try {
  for (const task of TASKS) {
    const prepared = await findTask(task).prepare({ dataDir, seed: 0, options: {} });
    const replay = join(dir, `${task.replace('/', '-')}.jsonl`);
    writeFileSync(replay, [...prepared.samples].map(replayLine).join('\n') + '\n');
    const taskStarted = performance.now();
    const summary = await startRun(
      {
        task,
        models: [`replay:${replay}`],
        seed: 0,
        options: {},
        dataDir,
        engine: { concurrency: 16, timeoutMs: 10_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true },
        judge: { model: 'scripted:judge', repeats: 1, format: 'text', maxParseRetries: 0, temperature: 0.1 },
      },
      { store, providers: { 'scripted:judge': judge } },
    );
    process.stdout.write(`${renderSummary(summary, runMetricDeclarationsOf(summary.task)).replace(`replay:${replay}`, 'replay (ground truth, perturbed)')}\n  wall ${((performance.now() - taskStarted) / 1000).toFixed(2)} s\n\n`);
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `all three tasks (1,306 items): wall ${((performance.now() - started) / 1000).toFixed(2)} s, CPU ${((cpu.user + cpu.system) / 1000 / 1000).toFixed(2)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`,
);
