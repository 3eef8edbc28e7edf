import { Command } from 'commander';
import { DEMO_NOTE, parseModelId } from '../core/index.js';
import { DEMO_TASKS, DEMO_TEXTS_DIR, findDemoTask, type DemoTask } from '../demo/demo-tasks.js';
import { startDemoServer } from '../demo/demo-server.js';
import { defaultRetryPolicy } from '../models/middleware/retry-policy.js';
import { createDemoProvider } from '../models/providers/demo/demo-provider.js';
import type { ModelProvider } from '../models/spec.js';
import { startRun } from '../runner/run.js';
import { defaultJudgeSpec, type RunSpec } from '../runner/run-spec.js';
import { redactStoreUrl } from '../store/store-url.js';
import { createProgressReporter } from './progress.js';
import { dbOption, exitCodeFor, interruptSignal, jsonOption, printSummary, withStore } from './shared.js';
import { printErr, printOut } from './terminal.js';

const CONCURRENCY = 4;

/** `assay demo` with no task: one line per demo task. */
export function demoList(): string {
  const width = Math.max(...DEMO_TASKS.map((d) => d.task.length));
  return DEMO_TASKS.map((d) => `  ${d.task.padEnd(width)}  ${d.line}`).join('\n');
}

/** What `assay run` would be given for the demo: its own small texts, its scripted models, seed 0. */
function demoSpec(demo: DemoTask): RunSpec {
  return {
    task: demo.task,
    models: demo.models,
    seed: 0,
    options: demo.options,
    dataDir: DEMO_TEXTS_DIR,
    engine: { concurrency: CONCURRENCY, timeoutMs: 30_000, retry: defaultRetryPolicy, cache: false },
    ...(demo.judge ? { judge: { ...defaultJudgeSpec, ...demo.judge } } : {}),
    ...(demo.userModel !== undefined ? { userModel: demo.userModel } : {}),
  };
}

/** The `demo:` providers of a demo, each pointed at its loopback server. */
function demoProviders(demo: DemoTask, baseURL: string): Record<string, ModelProvider> {
  const ids = [...demo.models, ...(demo.judge ? [demo.judge.model] : []), ...(demo.userModel !== undefined ? [demo.userModel] : [])];
  const providers: Record<string, ModelProvider> = {};
  for (const id of ids) {
    const { provider, model } = parseModelId(id);
    if (provider === 'demo') providers[id] = createDemoProvider({ model, baseURL, connections: CONCURRENCY });
  }
  return providers;
}

/** The commands to look at the demo's run next (`--db` repeated when it was given). */
function nextCommands(runId: string, db: string | undefined): string {
  const withDb = db === undefined ? '' : ` --db ${redactStoreUrl(db)}`;
  return ['next, try:', `  assay show ${runId}${withDb}`, `  assay report ${runId}${withDb} -o demo.html`, `  assay view${withDb}`].join('\n');
}

/**
 * Runs a demo as `assay run` runs a task — the real task, the HTTP providers and their
 * middleware, the store, the summary — with every model answered by a loopback server in this
 * process from the demo's script.
 */
async function demoCommand(name: string, flags: { db: string; json?: boolean }, dbGiven: boolean): Promise<number> {
  const demo = findDemoTask(name);
  const server = await startDemoServer(demo);
  const { stop, signal, dispose } = interruptSignal();
  try {
    return await withStore(flags.db, async (store) => {
      const progress = createProgressReporter(`demo ${demo.task}`);
      try {
        const summary = await startRun(demoSpec(demo), {
          store,
          providers: demoProviders(demo, server.url),
          signal,
          stop,
          onProgress: (e) => progress.update(e),
          onWarning: (message) => progress.note(`warning: ${message}`),
          onRunCreated: (run) => printErr(`demo run ${run.id}: ${run.task} — ${DEMO_NOTE} (db ${redactStoreUrl(flags.db)})\n`),
        });
        progress.stop();
        await printSummary(summary, Boolean(flags.json));
        const after = `\nThese were scripted demo answers, not a real model: a loopback server in this process answered every model, judge and simulated user from a script.\n${nextCommands(summary.run, dbGiven ? flags.db : undefined)}\n`;
        // With --json, stdout holds the summary alone (its "demo" field says what it is).
        (flags.json ? printErr : printOut)(after);
        return exitCodeFor(summary);
      } finally {
        progress.stop();
      }
      // A demo, like a run, makes its store when there is none yet.
    }, { missing: 'create' });
  } finally {
    dispose();
    await server.close();
  }
}

/** Registers `assay demo [task]`. */
export function registerDemoCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('demo')
    .description('run a task end to end without a key: scripted models on a loopback server play the model under test, the judge and the simulated user; the run is stored and reported like any other, marked as a demo')
    .argument('[task]', 'the demo task to run; without one, the demo tasks are listed')
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
Demo tasks:
${demoList()}

Every model of a demo is a demo:<name> id answered by a script (deterministic, not a model):
the numbers show how assay measures, not how good anything is. The run goes through the same
path as "assay run" — real HTTP to a server this process starts on 127.0.0.1, the middleware,
the store — on small texts written for the demo (resources/demo/, no benchmark data, no key).
It is stored in --db like any run, and "assay runs", "assay show" and reports say it is a demo.

Examples:
  assay demo
  assay demo summaries/alignment
  assay demo harm/system-prompt-leakage --db /tmp/demo.db`,
    )
    .action(async (task: string | undefined, flags: { db: string; json?: boolean }, command: Command) => {
      if (task === undefined) {
        printOut(`demo tasks (assay demo <task>; ${DEMO_NOTE}):\n${demoList()}\n`);
        return;
      }
      setExitCode(await demoCommand(task, flags, command.getOptionValueSource('db') === 'cli'));
    });
}
