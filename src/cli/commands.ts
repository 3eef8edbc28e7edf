import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command, Option } from 'commander';
import { InputError } from '../core/index.js';
import { allTasks } from '../benchmarks/registry.js';
import type { TaskOptions } from '../benchmarks/task.js';
import { resolveDataDir } from '../datasets/data-dir.js';
import { defaultRetryPolicy } from '../models/middleware/retry-policy.js';
import { exportRows, formatRows, type ExportFormat } from '../report/export.js';
import { renderRunList, renderSummary } from '../report/console.js';
import { requireRun, resumeRun, startRun, summarizeStoredRun, type RunDependencies } from '../runner/run.js';
import type { EngineSettings, RunSpec } from '../runner/run-spec.js';
import type { RunSummary } from '../runner/summary.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { collect, nonNegativeInt, number, oneOf, parsePrice, positiveInt } from './options.js';
import { createProgressReporter } from './progress.js';

const DEFAULT_DB = '.assay/assay.db';

/** Exit codes: 0 ok, 2 bad input, 1 unexpected failure, 3 finished with sample errors, 130 interrupted. */
export const EXIT = { ok: 0, unexpected: 1, badInput: 2, sampleErrors: 3, interrupted: 130 } as const;

const dbOption = (): Option => new Option('--db <path>', 'SQLite database holding the runs').default(DEFAULT_DB).env('ASSAY_DB');
const jsonOption = (): Option => new Option('--json', 'print one JSON object on stdout instead of text');

async function withStore<T>(path: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openSqliteStore(path);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function printSummary(summary: RunSummary, json: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(summary)}\n` : `${renderSummary(summary)}\n`);
}

function exitCodeFor(summary: RunSummary): number {
  if (summary.status === 'interrupted') return EXIT.interrupted;
  return Object.values(summary.models).some((m) => m.counts.errors > 0) ? EXIT.sampleErrors : EXIT.ok;
}

/** SIGINT/SIGTERM stop the run cleanly: in-flight calls are abandoned, everything finished is kept. */
function interruptSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const stop = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    process.stderr.write('\nstopping: finishing writes (press Ctrl-C again to quit at once)…\n');
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { signal: controller.signal, dispose: () => (process.off('SIGINT', stop), process.off('SIGTERM', stop)) };
}

interface EngineFlags {
  concurrency: number;
  rpm?: number;
  tpm?: number;
  timeout: number;
  maxRetries: number;
  cache: boolean;
  baseUrl?: string;
  price?: EngineSettings['prices'];
}

function engineFrom(flags: EngineFlags): EngineSettings {
  return {
    concurrency: flags.concurrency,
    timeoutMs: flags.timeout,
    retry: { ...defaultRetryPolicy, maxRetries: flags.maxRetries },
    cache: flags.cache,
    ...(flags.rpm ? { requestsPerMinute: flags.rpm } : {}),
    ...(flags.tpm ? { tokensPerMinute: flags.tpm } : {}),
    ...((flags.baseUrl ?? process.env['OPENAI_BASE_URL']) ? { openaiBaseURL: (flags.baseUrl ?? process.env['OPENAI_BASE_URL']) as string } : {}),
    ...(flags.price ? { prices: flags.price } : {}),
  };
}

function addEngineOptions(command: Command): Command {
  return command
    .addOption(new Option('-c, --concurrency <n>', 'model calls in flight at once, per model').default(8).argParser(positiveInt('--concurrency')))
    .addOption(new Option('--rpm <n>', 'requests-per-minute limit per model').argParser(positiveInt('--rpm')))
    .addOption(new Option('--tpm <n>', 'tokens-per-minute limit per model').argParser(positiveInt('--tpm')))
    .addOption(new Option('--timeout <ms>', 'per-attempt timeout in milliseconds').default(120_000).argParser(positiveInt('--timeout')))
    .addOption(new Option('--max-retries <n>', 'retries of a failed call (429, 5xx, timeout, network)').default(defaultRetryPolicy.maxRetries).argParser(nonNegativeInt('--max-retries')))
    .addOption(new Option('--no-cache', 'do not answer identical requests from the call cache'))
    .addOption(new Option('--base-url <url>', 'OpenAI-compatible endpoint (default: $OPENAI_BASE_URL or https://api.openai.com/v1)'))
    .addOption(new Option('--price <model=in/out>', 'USD per million input/output tokens for a model (repeatable)').argParser(parsePrice));
}

interface RunFlags extends EngineFlags {
  model: string[];
  limit?: number;
  perTool: number;
  shots?: '0' | '5';
  seed: number;
  dataDir?: string;
  json?: boolean;
  prompts: 'assay' | 'upstream';
  parser: 'strict' | 'paper';
  temperature?: number;
  maxTokens?: number;
  resume?: boolean;
  retryErrors?: boolean;
  download: boolean;
  db: string;
}

async function runCommand(taskName: string, flags: RunFlags): Promise<number> {
  const { dir: dataDir } = await resolveDataDir({ ...(flags.dataDir ? { flag: flags.dataDir } : {}) });
  const options: TaskOptions = {
    perTool: flags.perTool,
    ...(flags.shots !== undefined ? { shots: Number(flags.shots) as 0 | 5 } : {}),
    prompts: flags.prompts,
    parser: flags.parser,
    ...(flags.limit ? { limit: flags.limit } : {}),
  };
  const spec: RunSpec = {
    task: taskName,
    models: flags.model,
    seed: flags.seed,
    options,
    settings: {
      ...(flags.temperature !== undefined ? { temperature: flags.temperature } : {}),
      ...(flags.maxTokens !== undefined ? { maxTokens: flags.maxTokens } : {}),
    },
    dataDir,
    engine: engineFrom(flags),
  };
  return withStore(flags.db, async (store) => {
    const { signal, dispose } = interruptSignal();
    const progress = createProgressReporter(taskName);
    const deps: RunDependencies = {
      store,
      signal,
      onProgress: (e) => progress.update(e),
      onRunCreated: (run) => process.stderr.write(`run ${run.id}: ${run.task} on ${run.models.join(', ')} (db ${flags.db})\n`),
    };
    try {
      let summary: RunSummary;
      const previous = flags.resume || flags.retryErrors ? await findResumable(store, spec) : undefined;
      if (previous) {
        process.stderr.write(`resuming run ${previous}\n`);
        summary = await resumeRun(previous, { retryErrors: Boolean(flags.retryErrors), engine: spec.engine, dataDir }, deps);
      } else {
        if (flags.resume || flags.retryErrors) process.stderr.write('no earlier run with these settings to resume; starting a new one\n');
        summary = await startRun(spec, deps);
      }
      progress.stop();
      printSummary(summary, Boolean(flags.json));
      return exitCodeFor(summary);
    } finally {
      progress.stop();
      dispose();
    }
  });
}

/** The newest run with the same task, models, seed and options: what `run --resume` continues. */
async function findResumable(store: Store, spec: RunSpec): Promise<string | undefined> {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const runs = await store.listRuns();
  return runs.find((r) => r.task === spec.task && same(r.models, spec.models) && r.seed === spec.seed && same(r.options, spec.options))?.id;
}

export function registerCommands(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('list')
    .description('list the tasks assay can run')
    .addOption(jsonOption())
    .action((flags: { json?: boolean }) => {
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(allTasks.map((t) => ({ name: t.name, version: t.version, description: t.description })))}\n`);
        return;
      }
      const width = Math.max(...allTasks.map((t) => t.name.length));
      process.stdout.write(allTasks.map((t) => `${t.name.padEnd(width)}  ${t.description}`).join('\n') + '\n');
    });

  const run = program
    .command('run')
    .description('run a task on one or more models and print its metrics')
    .argument('<task>', 'task name, e.g. metatool/similar (see "assay list")')
    .requiredOption('-m, --model <id>', 'model under test as provider:model, repeatable (openai:gpt-4o-mini, replay:out.jsonl, baseline:lexical, baseline:random)', collect)
    .addOption(new Option('-n, --limit <n>', 'keep only the first N samples').argParser(positiveInt('--limit')))
    .addOption(new Option('--per-tool <n>', 'queries drawn per tool (MetaTool similar/scenario/reliability)').default(5).argParser(positiveInt('--per-tool')))
    .addOption(new Option('--shots <k>', 'in-context examples (default 0; upstream prompts are as shipped)').choices(['0', '5']))
    .addOption(new Option('--seed <s>', 'seed of every random choice (query sampling, candidate order, exemplars)').default(0).argParser(nonNegativeInt('--seed')))
    .addOption(new Option('--prompts <which>', 'assay: rebuilt prompts, shuffled candidates; upstream: the shipped prompt files byte for byte').choices(['assay', 'upstream']).default('assay'))
    .addOption(new Option('--parser <which>', 'awareness answer parser: strict (leading yes/no) or paper (the paper\'s substring rules)').choices(['strict', 'paper']).default('strict'))
    .addOption(new Option('--temperature <t>', 'sampling temperature (task default: 0 for MetaTool)').argParser(number('--temperature', 0, 2)))
    .addOption(new Option('--max-tokens <n>', 'maximum output tokens').argParser(positiveInt('--max-tokens')))
    .addOption(new Option('--data-dir <dir>', 'folder holding the datasets (default: $ASSAY_DATA_DIR, else the user cache)'))
    .addOption(new Option('--no-download', 'never download missing datasets'))
    .addOption(new Option('--resume', 'continue the newest run with the same task, models, seed and options'))
    .addOption(new Option('--retry-errors', 'with --resume: re-run only the samples that ended in error'))
    .addOption(jsonOption())
    .addOption(dbOption());
  addEngineOptions(run).action(async (task: string, flags: RunFlags) => {
    setExitCode(await runCommand(task, flags));
  });

  const resume = program
    .command('resume')
    .description('continue an interrupted run: finished samples are not called again')
    .argument('<run>', 'run id (or a unique prefix)')
    .addOption(new Option('--retry-errors', 're-run the samples that ended in error'))
    .addOption(new Option('--data-dir <dir>', 'data folder, if not the one the run was made with'))
    .addOption(jsonOption())
    .addOption(dbOption());
  addEngineOptions(resume).action(async (runId: string, flags: EngineFlags & { retryErrors?: boolean; dataDir?: string; json?: boolean; db: string }, command: Command) => {
    const engine: Partial<EngineSettings> = {};
    const given = (name: string): boolean => command.getOptionValueSource(name) === 'cli';
    const full = engineFrom(flags);
    if (given('concurrency')) Object.assign(engine, { concurrency: full.concurrency });
    if (given('timeout')) Object.assign(engine, { timeoutMs: full.timeoutMs });
    if (given('maxRetries')) Object.assign(engine, { retry: full.retry });
    if (given('cache')) Object.assign(engine, { cache: full.cache });
    if (given('rpm')) Object.assign(engine, { requestsPerMinute: full.requestsPerMinute });
    if (given('tpm')) Object.assign(engine, { tokensPerMinute: full.tokensPerMinute });
    if (given('baseUrl')) Object.assign(engine, { openaiBaseURL: full.openaiBaseURL });
    const code = await withStore(flags.db, async (store) => {
      const { signal, dispose } = interruptSignal();
      const progress = createProgressReporter(`resume ${runId}`);
      try {
        const summary = await resumeRun(runId, { retryErrors: Boolean(flags.retryErrors), engine, ...(flags.dataDir ? { dataDir: flags.dataDir } : {}) }, { store, signal, onProgress: (e) => progress.update(e) });
        progress.stop();
        printSummary(summary, Boolean(flags.json));
        return exitCodeFor(summary);
      } finally {
        progress.stop();
        dispose();
      }
    });
    setExitCode(code);
  });

  program
    .command('runs')
    .description('list the runs in the database, newest first')
    .addOption(jsonOption())
    .addOption(dbOption())
    .action(async (flags: { json?: boolean; db: string }) => {
      await withStore(flags.db, async (store) => {
        const runs = await store.listRuns();
        process.stdout.write(flags.json ? `${JSON.stringify(runs)}\n` : `${renderRunList(runs)}\n`);
      });
    });

  program
    .command('show')
    .description('print the metrics of a stored run (recomputed from the store, no model is called)')
    .argument('<run>', 'run id (or a unique prefix)')
    .addOption(new Option('--data-dir <dir>', 'data folder, if not the one the run was made with'))
    .addOption(jsonOption())
    .addOption(dbOption())
    .action(async (runId: string, flags: { json?: boolean; db: string; dataDir?: string }) => {
      await withStore(flags.db, async (store) => printSummary(await summarizeStoredRun(store, runId, flags.dataDir), Boolean(flags.json)));
    });

  program
    .command('export')
    .description('write one row per sample and model: prompt, candidates, gold, raw output, parsed answer, score')
    .argument('<run>', 'run id (or a unique prefix)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['jsonl', 'csv', 'tsv']).default('jsonl'))
    .addOption(new Option('-o, --out <file>', 'write to this file instead of stdout'))
    .addOption(new Option('-m, --model <id>', 'only this model'))
    .addOption(dbOption())
    .action(async (runId: string, flags: { format: ExportFormat; out?: string; model?: string; db: string }) => {
      await withStore(flags.db, async (store) => {
        const run = await requireRun(store, runId);
        if (flags.model && !run.models.includes(flags.model)) throw new InputError(`run ${run.id} has no model ${flags.model}; it has ${run.models.join(', ')}`);
        const samples = await store.loadSamples(run.id);
        const results = await store.results(run.id, flags.model);
        const text = formatRows(exportRows(run, samples, results), flags.format);
        if (flags.out) {
          mkdirSync(dirname(flags.out), { recursive: true });
          writeFileSync(flags.out, text);
          process.stderr.write(`wrote ${results.length} rows to ${flags.out}\n`);
        } else process.stdout.write(text);
      });
    });

}
