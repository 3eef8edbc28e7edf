import { Command, Option } from 'commander';
import { InputError } from '../core/index.js';
import { findTask } from '../benchmarks/registry.js';
import { resolveDataDir } from '../datasets/data-dir.js';
import { requireRun, resumeRun, startRun, type RunDependencies } from '../runner/run.js';
import { checkRepeats, defaultJudgeSpec, type JudgeSpec, type RunSpec } from '../runner/run-spec.js';
import { checkDeclarationsUnchanged } from '../runner/declared-models.js';
import type { RunSummary } from '../analysis/summary.js';
import type { Store } from '../store/store.js';
import { collect, nonNegativeInt, number, parseRubric, positiveInt } from './options.js';
import { addEngineOptions, engineFrom, givenEngine, type EngineFlags } from './engine-options.js';
import { createProgressReporter, type ProgressReporter } from './progress.js';
import type { LimiterFactory } from '../models/middleware/limiter.js';
import { redactStoreUrl } from '../store/store-url.js';
import { EXIT, dataDirOption, dbOption, exitCodeFor, interruptSignal, jsonOption, leaseFromEnv, printSummary, retryNoticeFromEnv, storeFailureExit, withStore } from './shared.js';
import { dataDirForRun, dataReady } from './task-data.js';
import { addTaskOptions, readsOwnData, taskOptionsFrom, type TaskFlags } from './task-options.js';
import { sharedLimitsFrom } from './shared-limits.js';
import { DEFAULT_QUEUE_NAME, queueLocation } from '../queue/queue-location.js';
import { queuedBaseUrlRefusal } from '../queue/queued-base-url.js';
import { nonEmpty } from '../models/http/base-url.js';
import { printErr, printOut } from './terminal.js';
import { checkModelArgument, configFrom, configOption } from './config-file.js';
import type { AssayConfig } from '../config/load-config.js';
import { judgeSpecOf } from './judge-spec.js';
import { dropPreparationGarbage } from './drop-preparation-garbage.js';
import { collectionPacer } from './collection-pacer.js';

/** The API key named by `--api-key-env` (the key itself never goes on a command line or into the store). */
function secretsFrom(flags: EngineFlags): RunDependencies['secrets'] {
  if (!flags.apiKeyEnv) return {};
  const key = process.env[flags.apiKeyEnv];
  if (!key) throw new InputError(`--api-key-env ${flags.apiKeyEnv}: that environment variable is not set`);
  return { openaiApiKey: key };
}

/** What a run or resume session in this process depends on: the store, its stop signals and lease, the keys, shared limits and progress. */
function sessionDeps(
  store: Store,
  flags: EngineFlags,
  session: { signal: AbortSignal; stop: AbortSignal; lease: ReturnType<typeof leaseFromEnv>; shared: { limiters: LimiterFactory } | undefined; progress: ProgressReporter; config: AssayConfig | undefined; sessionName: string },
): RunDependencies {
  const { signal, stop, lease, shared, progress, config, sessionName } = session;
  const paceCollections = collectionPacer();
  return {
    store,
    ...(config ? { config } : {}),
    sessionName,
    ...(shared ? { limiters: shared.limiters } : {}),
    signal,
    stop,
    ...(lease ? { lease } : {}),
    secrets: secretsFrom(flags),
    ...retryNoticeFromEnv(),
    onProgress: (e) => {
      // The run's first event (nothing finished yet) comes after its preparation, before its first call.
      if (e.finished === 0 && e.modelId === '') dropPreparationGarbage();
      else paceCollections(e.finished);
      progress.update(e);
    },
    onWarning: (message) => progress.note(`warning: ${message}`),
  };
}

interface RunFlags extends EngineFlags, TaskFlags {
  model?: string[];
  suite?: string;
  junit?: string;
  baseline?: string;
  config?: string;
  json?: boolean;
  parser: 'strict' | 'paper';
  temperature?: number;
  maxTokens?: number;
  resume?: boolean;
  retryErrors?: boolean;
  estimate?: boolean;
  /** `--repeats k`: the model under test answers each sample k times (default 1). */
  repeats?: number;
  db: string;
  judge?: string;
  userModel?: string;
  /** Absent: the task's default (`Task.defaultJudgeRepeats`, harm 5), else 1. */
  judgeRepeats?: number;
  judgeFormat: 'text' | 'json';
  judgeTemperature: number;
  judgeMaxTokens?: number;
  judgeParseRetries: number;
  exactOnly?: boolean;
  allowModifiedData?: boolean;
  queue?: string;
  queueName?: string;
  detach?: boolean;
}

function judgeFrom(taskName: string, flags: RunFlags, config: AssayConfig | undefined): JudgeSpec | undefined {
  if (!flags.judge) return undefined;
  checkModelArgument(flags.judge, config);
  return judgeSpecOf(flags.judge, taskName, flags);
}

/** The newest run with the same task, models, seed and options: what `run --resume` continues. */
async function findResumable(store: Store, spec: RunSpec): Promise<string | undefined> {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const runs = await store.listRuns();
  return runs.find((r) => r.task === spec.task && same(r.models, spec.models) && r.seed === spec.seed && same(r.options, spec.options))?.id;
}

/** What `--suite` and a suite run's resume need (the suite runner, gates, config): loaded by them alone. */
async function suiteModule(): Promise<typeof import('./suite-command.js') & Pick<typeof import('./judge-spec.js'), 'judgeFlagsRecorded'>> {
  const [suites, { judgeFlagsRecorded }] = await Promise.all([import('./suite-command.js'), import('./judge-spec.js')]);
  return { ...suites, judgeFlagsRecorded };
}

/**
 * `assay run --suite NAME`: the suite checked and every entry's run planned before the store is
 * opened (a bad suite records nothing), then its entries run in this process, one run each.
 */
async function suiteCommand(name: string, flags: RunFlags): Promise<number> {
  if (flags.queue !== undefined || flags.resume || flags.retryErrors || flags.estimate) throw new InputError('--suite runs its entries in this process: --queue, --resume, --retry-errors and --estimate do not go with it');
  const config = await configFrom(flags.config);
  if (!config) throw new InputError(`--suite ${name}: no config file found (--config FILE, $ASSAY_CONFIG or ./assay.yaml) to declare it`);
  const resolved = resolveDataDir({ ...(flags.dataDir ? { flag: flags.dataDir } : {}) });
  const { planSuite, runPlannedSuite } = await suiteModule();
  const plan = planSuite(config, name, flags, resolved);
  const lease = leaseFromEnv();
  const { stop, signal, dispose } = interruptSignal();
  try {
    const shared = await sharedLimitsFrom(flags, Boolean(flags.rpm ?? flags.tpm), (message) => printErr(`warning: ${message}\n`));
    try {
      return await storeFailureExit(flags.db, () => withStore(flags.db, async (store) => {
        let progress: ProgressReporter | undefined;
        try {
          return await runPlannedSuite(store, plan, flags, {
            stop,
            dataDir: resolved,
            config,
            depsFor: (_i, spec) => {
              progress?.stop();
              progress = createProgressReporter(spec.task);
              return {
                ...sessionDeps(store, flags, { signal, stop, lease, shared, progress, config, sessionName: 'this run' }),
                onRunCreated: (run) => printErr(`run ${run.id}: ${run.task} on ${run.models.join(', ')}${run.userModel !== undefined ? `, simulated user ${run.userModel}` : ''}${run.judge ? `, judge ${run.judge.model}` : ''} (db ${redactStoreUrl(flags.db)})\n`),
              };
            },
          });
        } finally {
          progress?.stop();
        }
      }, { missing: 'create' }));
    } finally {
      await shared?.close();
    }
  } finally {
    dispose();
  }
}

async function runCommand(taskName: string | undefined, flags: RunFlags): Promise<number> {
  if (flags.suite !== undefined) {
    if (taskName !== undefined) throw new InputError(`--suite ${flags.suite} names its tasks: give no task argument (got "${taskName}")`);
    if (flags.model !== undefined) throw new InputError(`--suite ${flags.suite} names its models: -m/--model does not go with it`);
    if (flags.judge !== undefined || flags.userModel !== undefined) throw new InputError(`--suite ${flags.suite} names its judge and simulated user (judge:, userModel: in the config file): --judge and --user-model do not go with it; --judge-repeats and the other judge settings do`);
    return suiteCommand(flags.suite, flags);
  }
  if (flags.junit !== undefined || flags.baseline !== undefined) throw new InputError(`${flags.junit !== undefined ? '--junit' : '--baseline'} goes with --suite`);
  if (taskName === undefined) throw new InputError('missing required argument \'task\' (or --suite NAME)');
  if (flags.model === undefined) throw new InputError("required option '-m, --model <id>' not specified");
  return runTask(taskName, { ...flags, model: flags.model });
}

async function runTask(taskName: string, flags: RunFlags & { model: string[] }): Promise<number> {
  // Cheap checks first, so a typo fails before any download or database write.
  findTask(taskName);
  if (flags.queue === undefined && (flags.detach || flags.queueName !== undefined)) throw new InputError('--detach and --queue-name go with --queue');
  if (flags.queue !== undefined && (flags.resume || flags.retryErrors)) throw new InputError('--resume and --retry-errors do not go with --queue: "assay resume <run>" continues a queued run in this process');
  if (flags.queue !== undefined) queueLocation(flags.queue, flags.queueName);
  if (flags.queue !== undefined && flags.baseUrl !== undefined) throw new InputError(queuedBaseUrlRefusal('--base-url'));
  // The config file first: a model name is checked against what it declares.
  const config = await configFrom(flags.config);
  flags.model.forEach((id) => checkModelArgument(id, config));
  if (flags.userModel !== undefined) checkModelArgument(flags.userModel, config);
  const options = taskOptionsFrom(taskName, flags);
  const judge = judgeFrom(taskName, flags, config);
  const declared = [...flags.model, ...(flags.judge !== undefined ? [flags.judge] : []), ...(flags.userModel !== undefined ? [flags.userModel] : [])].filter((id) => !id.includes(':'));
  // Every variable, command and module file the declared models need, before the store is opened
  // and before the data dir is looked at: a bad config file is told first, with or without data.
  if (config && flags.queue === undefined) (await import('../config/preflight.js')).checkModelsReady(config, declared, process.env);
  const resolved = resolveDataDir({ ...(flags.dataDir ? { flag: flags.dataDir } : {}) });
  const spec: RunSpec = {
    task: taskName,
    models: flags.model,
    seed: flags.seed,
    options,
    settings: {
      ...(flags.temperature !== undefined ? { temperature: flags.temperature } : {}),
      ...(flags.maxTokens !== undefined ? { maxTokens: flags.maxTokens } : {}),
    },
    dataDir: resolved.dir,
    // A run for workers names no endpoint: theirs are their own.
    engine: engineFrom(flags, flags.queue !== undefined ? ['openaiBaseURL'] : []),
    ...(judge ? { judge } : {}),
    ...(flags.userModel !== undefined ? { userModel: flags.userModel } : {}),
    ...(flags.exactOnly ? { exactOnly: true } : {}),
    ...(flags.allowModifiedData ? { allowModifiedData: true } : {}),
    ...(flags.repeats !== undefined && flags.repeats > 1 ? { repeats: checkRepeats(flags.repeats) } : {}),
  };
  const lease = leaseFromEnv();
  const { stop, signal, dispose } = interruptSignal();
  try {
    // A user's own tool set replaces the benchmark data: nothing to download (a download stops at the first Ctrl-C).
    const ready = readsOwnData(options) || (await dataReady(taskName, { dataDir: resolved, download: flags.download, signal: stop }));
    if (!ready) return EXIT.interrupted;
    if (flags.estimate) {
      const [{ estimateRun }, { renderEstimate }, { modelOwnSettings }] = await Promise.all([import('../runner/estimate.js'), import('./estimate-text.js'), import('../core/model-own-settings.js')]);
      // A declared model's price is in its declaration (a --price given for it still wins).
      const declaredPrices = Object.fromEntries(declared.flatMap((name) => {
        const declaration = config?.models.get(name);
        const price = declaration ? modelOwnSettings(declaration).price : undefined;
        return price ? [[name, price]] : [];
      }));
      const estimate = await estimateRun(Object.keys(declaredPrices).length > 0 ? { ...spec, engine: { ...spec.engine, prices: { ...declaredPrices, ...spec.engine.prices } } } : spec, config?.models);
      printOut(flags.json ? `${JSON.stringify(estimate, null, 2)}\n` : renderEstimate(estimate));
      return EXIT.ok;
    }
    if (flags.queue !== undefined) {
      // The submitting process calls no model: limits shared by the fleet are the workers' to keep.
      if (flags.sharedLimits !== undefined) throw new InputError('--shared-limits goes to the processes that call models: with --queue, give it to each "assay worker"');
      if (nonEmpty(process.env['OPENAI_BASE_URL']) !== undefined) printErr('warning: OPENAI_BASE_URL is not sent with a queued run: each worker calls its own endpoint (assay worker --base-url, or the worker\'s OPENAI_BASE_URL)\n');
      // The queue path (BullMQ, ioredis) is loaded only by a run that uses it: not on every start.
      const { queueRunCommand } = await import('./queue-run.js');
      return await queueRunCommand(spec, { ...flags, queue: flags.queue, ...(config ? { declared: config } : {}) });
    }
    // Before the store is opened: a bad or unreachable Redis is refused before anything is recorded.
    const shared = await sharedLimitsFrom(flags, Boolean(flags.rpm ?? flags.tpm), (message) => printErr(`warning: ${message}\n`));
    try {
      return await storeFailureExit(flags.db, () => withStore(flags.db, async (store) => {
        const progress = createProgressReporter(taskName);
        const deps: RunDependencies = {
          ...sessionDeps(store, flags, { signal, stop, lease, shared, progress, config, sessionName: 'this run' }),
          onRunCreated: (run) => printErr(`run ${run.id}: ${run.task} on ${run.models.join(', ')}${run.userModel !== undefined ? `, simulated user ${run.userModel}` : ''}${run.judge ? `, judge ${run.judge.model}` : ''} (db ${redactStoreUrl(flags.db)})\n`),
        };
        try {
          let summary: RunSummary;
          const previous = flags.resume || flags.retryErrors ? await findResumable(store, spec) : undefined;
          if (previous) {
            printErr(`resuming run ${previous}\n`);
            summary = await resumeRun(previous, { retryErrors: Boolean(flags.retryErrors), engine: spec.engine, dataDir: resolved.dir, allowModifiedData: Boolean(flags.allowModifiedData), repeats: flags.repeats ?? 1 }, deps);
          } else {
            if (flags.resume || flags.retryErrors) printErr('no earlier run with these settings to resume; starting a new one\n');
            summary = await startRun(spec, deps);
          }
          progress.stop();
          await printSummary(summary, Boolean(flags.json));
          return exitCodeFor(summary);
        } finally {
          progress.stop();
        }
        // A run makes its store (and folders) when there is none yet; the commands that only read refuse it.
      }, { missing: 'create' }));
    } finally {
      await shared?.close();
    }
  } finally {
    dispose();
  }
}

type ResumeFlags = EngineFlags & { repeats?: number; junit?: string; config?: string; retryErrors?: boolean; dataDir?: string; json?: boolean; download: boolean; db: string; allowModifiedData?: boolean; queue?: string; queueName?: string; detach?: boolean };

/**
 * `assay resume <suite-run>`: the suite run's finished member runs are read, its unfinished ones
 * resumed (the engine options given here replace theirs), its entries that never started run now
 * under the same suite run; then its gates, as `run --suite` prints them.
 */
async function suiteResumeCommand(suiteRun: string, flags: ResumeFlags, engine: ReturnType<typeof givenEngine>): Promise<number> {
  if (flags.queue !== undefined || flags.queueName !== undefined || flags.detach || flags.retryErrors) throw new InputError('assay resume <suite-run> continues its runs in this process: --queue, --queue-name, --detach and --retry-errors do not go with it');
  const config = await configFrom(flags.config);
  if (!config) throw new InputError(`suite run ${suiteRun}: no config file found (--config FILE, $ASSAY_CONFIG or ./assay.yaml) to declare its suite`);
  const resolved = resolveDataDir({ ...(flags.dataDir ? { flag: flags.dataDir } : {}) });
  const [{ planSuite, runPlannedSuite, storedSuiteRun, judgeFlagsRecorded }, { suiteRunsIn }] = await Promise.all([suiteModule(), import('../suites/membership.js')]);
  const lease = leaseFromEnv();
  const { stop, signal, dispose } = interruptSignal();
  try {
    return await storeFailureExit(flags.db, () => withStore(flags.db, async (store) => {
      const stored = await storedSuiteRun(store, suiteRun);
      if (!stored) throw new InputError(`no suite run "${suiteRun}" in the store`);
      // Entries that never started grade as the suite run's other entries did (their recorded judge settings).
      const members = [...(suiteRunsIn(await store.listRuns()).get(suiteRun)?.members.values() ?? [])];
      const plan = planSuite(config, stored.suite, { ...flags, ...judgeFlagsRecorded(members) }, resolved);
      if (plan.suite.tasks.length !== stored.entries) throw new InputError(`suite ${stored.suite} has ${plan.suite.tasks.length} entries now, ${stored.entries} when suite run ${suiteRun} started: run the suite again (assay run --suite ${stored.suite})`);
      let progress: ProgressReporter | undefined;
      const depsOf = (label: string): RunDependencies => {
        progress?.stop();
        progress = createProgressReporter(label);
        return {
          ...sessionDeps(store, flags, { signal, stop, lease, shared: undefined, progress, config, sessionName: 'this run' }),
          onRunCreated: (run) => printErr(`run ${run.id}: ${run.task} on ${run.models.join(', ')} (db ${redactStoreUrl(flags.db)})\n`),
        };
      };
      try {
        return await runPlannedSuite(store, plan, flags, {
          stop,
          dataDir: resolved,
          config,
          depsFor: (_i, spec) => depsOf(spec.task),
          resumeMember: async (runId) => {
            const run = await requireRun(store, runId);
            printErr(`resuming run ${run.id} (${run.task})\n`);
            const dataDir = dataDirForRun(flags.dataDir, run.provenance.dataDir) ?? resolved;
            return resumeRun(run.id, { retryErrors: false, engine, dataDir: dataDir.dir, allowModifiedData: Boolean(flags.allowModifiedData) }, depsOf(`resume ${run.id}`));
          },
        }, suiteRun);
      } finally {
        progress?.stop();
      }
    }));
  } finally {
    dispose();
  }
}

async function resumeCommand(runId: string, flags: ResumeFlags, command: Command): Promise<number> {
  // Only the engine settings given on this command line replace the run's own.
  const given = (name: string): boolean => command.getOptionValueSource(name) === 'cli';
  if (given('baseUrl') && flags.queue !== undefined) throw new InputError(queuedBaseUrlRefusal('--base-url'));
  const engine = givenEngine(flags, given);
  if (runId.startsWith('suite-')) return suiteResumeCommand(runId, flags, engine);
  if (flags.junit !== undefined) throw new InputError('--junit goes with a suite run (assay resume suite-…)');
  if (flags.queue !== undefined) {
    if (flags.retryErrors) throw new InputError(`--retry-errors does not go with --queue: units that ended in error are redone in one process (assay resume ${runId} --retry-errors --db …)`);
    if (flags.sharedLimits !== undefined) throw new InputError('--shared-limits does not go with --queue: workers keep the limits in the queue\'s Redis');
    const { queueResumeCommand } = await import('./queue-run.js');
    return queueResumeCommand(runId, engine, { queue: flags.queue, db: flags.db, ...(flags.queueName !== undefined ? { queueName: flags.queueName } : {}), ...(flags.detach ? { detach: true } : {}), ...(flags.json ? { json: true } : {}) });
  }
  if (flags.queueName !== undefined || flags.detach) throw new InputError('--queue-name and --detach go with --queue');
  const config = await configFrom(flags.config);
  const shared = await sharedLimitsFrom(flags, engine.requestsPerMinute !== undefined || engine.tokensPerMinute !== undefined ? true : undefined, (message) => printErr(`warning: ${message}\n`));
  try {
    return await storeFailureExit(flags.db, () => withStore(flags.db, async (store) => {
      const run = await requireRun(store, runId);
      // The config file's preflight for this run's declared models (declared the same way, every
      // variable and file there) before its data dir is looked at or fetched; the session checks again.
      checkDeclarationsUnchanged(run, config, process.env, 'the resume');
      const dataDir = dataDirForRun(flags.dataDir, run.provenance.dataDir);
      if (!dataDir) throw new InputError(`run ${run.id} does not record its data dir; pass --data-dir`);
      const lease = leaseFromEnv();
      const { stop, signal, dispose } = interruptSignal();
      const progress = createProgressReporter(`resume ${run.id}`);
      try {
        if (!readsOwnData(run.options) && !(await dataReady(run.task, { dataDir, download: flags.download, signal: stop }))) return EXIT.interrupted;
        const summary = await resumeRun(run.id, { retryErrors: Boolean(flags.retryErrors), engine, dataDir: dataDir.dir, allowModifiedData: Boolean(flags.allowModifiedData), ...(flags.repeats !== undefined ? { repeats: flags.repeats } : {}) }, sessionDeps(store, flags, { signal, stop, lease, shared, progress, config, sessionName: 'the resume' }));
        progress.stop();
        await printSummary(summary, Boolean(flags.json));
        return exitCodeFor(summary);
      } finally {
        progress.stop();
        dispose();
      }
    }));
  } finally {
    await shared?.close();
  }
}

const RUN_EXAMPLES = `
Examples:
  assay run metatool/similar --model baseline:lexical --per-tool 1
  assay run metatool/awareness --model openai:gpt-4o-mini --limit 50 --json
  assay run metatool/similar --model replay:outputs.jsonl --seed 0 --per-tool 1
  assay run metatool/similar --model openai:gpt-4o-mini --tools my-tools.json --embedder local:./emb.gguf
  assay run functionchat/singlecall --model openai:gpt-4o-mini --judge openai:gpt-4o --judge-repeats 3
  assay run functionchat/dialog --model replay:outputs.jsonl --exact-only
  assay run metatool/similar --model openai:gpt-4o-mini --max-tokens 64 --estimate
  assay run metatool/similar --model openai:gpt-4o-mini --max-cost 2.50
  assay run summaries/alignment --articles ./articles --config assay.yaml -m small -m other --judge big
  assay run metatool/similar --model openai:gpt-4o-mini --queue redis://10.0.0.5:6379 --db postgres://assay@10.0.0.6/assay --detach
  assay run --suite release --junit assay-junit.xml

Suites: --suite NAME runs a suite the config file declares under suites: (its tasks on its
models, one run each), then prints one table of its gates (pass, fail or inconclusive) and exits
0 when none failed, 4 when one did, 3 when samples ended in error, 130 when interrupted; --junit
FILE writes a JUnit file, and $GITHUB_STEP_SUMMARY, when set, gets a Markdown table. See
docs/suites.md.

Declared names: a config file (--config FILE, else $ASSAY_CONFIG, else ./assay.yaml) declares models
and applications by name (models: small: {provider: openai, model: …, baseUrl: …, apiKeyEnv: …});
-m small, --judge big and --user-model big use them, each with its own endpoint, key and settings
(--base-url and --api-key-env hold for openai: ids only). See docs/targets.md.

Model ids: openai:<model> (needs OPENAI_API_KEY; --base-url for compatible servers),
anthropic:<model> (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL), gemini:<model> (GEMINI_API_KEY or
GOOGLE_API_KEY; GEMINI_BASE_URL), ollama:<model> (OLLAMA_HOST, default 127.0.0.1:11434, no key),
replay:<file.jsonl> (one {"id": "<sample id>", "output": "<text>"} per line; "assay samples
<task>" with the same seed and options lists the ids and inputs, for every task; a file that
matches none of the run's samples is refused before anything is recorded),
baseline:lexical, baseline:random (reference models, no API), given:answers (the answers a
task's own data holds, e.g. a groundedness file's answer column), local:<file.gguf> (a GGUF model
run in-process, no key, no server; also as --judge, --user-model and --embedder) or
local:hf:<owner>/<repo>/<file.gguf> (downloaded once into $ASSAY_MODEL_DIR, else the user cache,
then used offline; add #sha256=<hex> to pin it).
Offline (no access to the hub): copy the .gguf over and give local:./file.gguf, or put it where
the cache would (~/.cache/assay/models/hf/<owner>/<repo>/main/<file>) and keep the local:hf: id.
See docs/local-models.md.

Data: read from --data-dir, else $ASSAY_DATA_DIR, else the user cache; a missing dataset is
downloaded and checked against pinned sha256 checksums unless --no-download is given. Every
built-in data file a task reads is checked against its pinned sha256 before anything is
recorded or called: a modified file is refused (exit 2, the file named) unless
--allow-modified-data is given, and then the run records it and its summary, "assay show" and
"assay export" say "data modified". Your own files (--tools, --rubric) are not pinned.

Ctrl-C: the first stops starting samples and lets the calls in flight finish and be stored
(a resume does not pay for them again); the second aborts them; the run is interrupted and
resumable either way.

A run is owned by one process at a time (a lease in the database, renewed every 5 s): a second
"resume" of a run another process is running is refused. A run whose process died without
saying so (kill -9, a crash) shows as "stale" in "assay runs" and can be resumed once its
lease has expired (30 s after its last renewal).

Repeats (--repeats K): the model under test answers each sample K times, repeat r with seed
--seed + r (each its own request, cached call and stored result). The task's own metrics read
repeat 0; the summary adds repeat_pass_rate, pass@k (at least one of the K passes) and pass^k
(all K pass), with 95% intervals, for a pass/fail score, or repeat_mean and repeat_spread for a
number. A sample with a repeat without a verdict is in none of them (repeat_undecided counts
it). export has a repeat column; a resume finishes missing repeats. See docs/suites.md.

Errors that repeat for every sample stop a model early: its first auth error (401/403, a refused
key), its first not-found (404, a model or endpoint that does not exist), or 3 identical
bad-request errors (400) in a row with no success between. Calls in flight then finish (at
most --concurrency - 1 after the one that stopped it), no new sample of that model starts (a
judge's stop stops the run), the samples that got the error are left unfinished, and the run ends
interrupted (exit 130) with the provider's message. Fix the cause, then "assay resume <run>"
calls them again. --no-fail-fast turns this off.

Exit codes: 0 finished, 2 bad input or the run is owned by another process, 3 finished but
some samples ended in error (continue with "assay resume <run> --retry-errors"; for a replay
file's missing outputs, add their lines first), 130 interrupted (a Ctrl-C, --max-cost, or an
error that repeats for every sample: "assay resume <run>"), 1 unexpected failure.`;

/** Registers `assay run` and `assay resume`. */
export function registerRunCommands(program: Command, setExitCode: (code: number) => void): void {
  const run = addTaskOptions(
    program
      .command('run')
      .description('run a task on one or more models, store every call and result, and print the metrics')
      .argument('[task]', 'task name, e.g. metatool/similar (see "assay list"); none with --suite')
      .option('-m, --model <id>', 'model under test as provider:model or a name the config file declares, repeatable (openai:gpt-4o-mini, local:./model.gguf, replay:out.jsonl, baseline:lexical, baseline:random; all kinds below)', collect),
  )
    .addOption(new Option('--parser <which>', "MetaTool answer reading: strict (assay's rules, docs/metatool.md) or paper (the paper's answer matching; answers it leaves undecided are counted as manual)").choices(['strict', 'paper']).default('strict'))
    .addOption(new Option('--temperature <t>', 'sampling temperature (task default: 0 for MetaTool, 0.1 for FunctionChat)').argParser(number('--temperature', 0, 2)))
    .addOption(new Option('--max-tokens <n>', 'maximum output tokens').argParser(positiveInt('--max-tokens')))
    .addOption(new Option('--user-model <id>', 'the simulated user of a task that talks to the model under test as a user (harm measurement), as provider:model or a declared name'))
    .addOption(new Option('--judge <id>', 'model in the judge role for judged tasks (FunctionChat), as provider:model or a declared name'))
    .addOption(new Option('--judge-repeats <r>', 'grade each item R times, seeds differing (default 1; harm 5, as its seed repeats). A pass/fail verdict or a claim\'s label takes a strict majority of the R, else no verdict; a level (harm severity, groundedness score) is the level a strict majority gives, else the median, a tie taken away from the defect (no_majority_share counts those)').argParser(positiveInt('--judge-repeats')))
    .addOption(new Option('--judge-format <f>', 'text: the rubric\'s pass/fail last line; json: reasons-first JSON verdict (structured output)').choices(['text', 'json']).default(defaultJudgeSpec.format))
    .addOption(new Option('--judge-temperature <t>', 'judge sampling temperature (upstream FunctionChat grades at 0.1)').default(defaultJudgeSpec.temperature).argParser(number('--judge-temperature', 0, 2)))
    .addOption(new Option('--judge-max-tokens <n>', 'maximum judge output tokens').argParser(positiveInt('--judge-max-tokens')))
    .addOption(new Option('--judge-parse-retries <n>', 'new judge calls after an unparseable verdict before it counts as no verdict').default(defaultJudgeSpec.maxParseRetries).argParser(nonNegativeInt('--judge-parse-retries')))
    .addOption(new Option('--rubric <type=file>', 'use your own rubric file for one output type (FunctionChat: call, completion, slot, relevance), repeatable').argParser(parseRubric))
    .addOption(new Option('--exact-only', 'judged tasks without a judge: tool calls by exact match alone, other items no verdict'))
    .addOption(new Option('--allow-modified-data', "run although a file of the built-in data differs from its pinned sha256 (refused otherwise, exit 2); the run records the files, and show/export print them"))
    .addOption(new Option('--resume', 'continue the newest run with the same task, models, seed and options'))
    .addOption(new Option('--retry-errors', 'with --resume: re-run only the samples that ended in error'))
    .addOption(new Option('--repeats <k>', 'ask the model under test K times per sample, each repeat with its own seed (the run\'s seed + repeat) and its own cached call and stored result; adds repeat_pass_rate, pass@k (at least one of the K passes) and pass^k (all K pass) with 95% intervals, or repeat_mean and repeat_spread for a numeric score (default 1)').argParser(positiveInt('--repeats')))
    .addOption(new Option('--estimate', 'print what the run would cost (samples, calls, approximate tokens, USD) and stop: no model called, nothing stored'))
    .addOption(new Option('--queue <url>', 'record the run and queue its units on this Redis (redis://host:6379) for "assay worker"s, instead of calling the models here; needs --db postgres://…'))
    .addOption(new Option('--queue-name <name>', `with --queue: the queue to use (default ${DEFAULT_QUEUE_NAME})`))
    .addOption(new Option('--detach', 'with --queue: print the run id and return at once instead of following the run'))
    .addOption(new Option('--suite <name>', 'run the suite the config file declares under suites: (its tasks on its models, one run each), then check its gates: exit 0 all passed, 4 a gate failed (docs/suites.md)'))
    .addOption(new Option('--junit <file>', 'with --suite: write one JUnit test case per gate and model to this file'))
    .addOption(new Option('--baseline <id>', 'with --suite: the suite run (suite-…) or run its regression gates compare with, instead of its regression.baseline (the margin stays); one of another suite, or of a task the suite does not run, is refused'))
    .addOption(configOption())
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText('after', RUN_EXAMPLES);
  addEngineOptions(run).action(async (task: string | undefined, flags: RunFlags) => setExitCode(await runCommand(task, flags)));

  const resume = program
    .command('resume')
    .description('continue an interrupted run: finished samples are not called again')
    .argument('<run>', 'run id (or a unique prefix; "assay runs" lists them), or a suite run\'s id (suite-…): its unfinished runs resumed, its entries never started run, then its gates')
    .addOption(new Option('--retry-errors', 're-run the samples that ended in error'))
    .addOption(new Option('--repeats <k>', 'the repeats the run was made with: refused if they differ (a resume finishes the missing repeats of every sample; it cannot change K)').argParser(positiveInt('--repeats')))
    .addOption(new Option('--junit <file>', 'with a suite run: write one JUnit test case per gate and model to this file'))
    .addOption(dataDirOption('data folder, if not the one the run was made with'))
    .addOption(new Option('--no-download', 'never download a missing dataset; fail instead'))
    .addOption(new Option('--allow-modified-data', 'resume although a built-in data file differs from its pinned sha256 and the run did not record that (a run made before assay checked)'))
    .addOption(new Option('--queue <url>', 'queue the units that have no result again on this Redis for "assay worker"s, instead of calling the models here; needs --db postgres://…'))
    .addOption(new Option('--queue-name <name>', `with --queue: the queue to use (default ${DEFAULT_QUEUE_NAME})`))
    .addOption(new Option('--detach', 'with --queue: print the run id and return at once instead of following the run'))
    .addOption(configOption())
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      "\nA run made with a config file resumes with the same file: a declared model whose declaration changed is refused, naming the field.\n\nEngine options given here (concurrency, timeouts, retries…) replace the run's own for this session only.\n\n" +
        'With --queue (a PostgreSQL --db), the units without a result are queued again for the workers, and the engine options\n' +
        "given here replace the run's own in the store (workers read them there; not --base-url: workers call their own endpoint):\n" +
        'e.g. a run its --max-cost stopped, resumed with a larger one; a run a fail-fast stop interrupted, once the workers have\n' +
        'the right key. Units that ended in error keep their result (--retry-errors redoes them in one process). A run still\n' +
        'running on the queue is refused.\n\n' +
        'A run is owned by one process at a time: while another process runs it (its lease in the database is live), resume is\n' +
        'refused with one line naming that process, exit code 2. A run whose process died (kill -9; "stale" in "assay runs")\n' +
        'is taken over once its lease has expired, 30 s after its last renewal.\n\n' +
        'Ctrl-C: the first lets the calls in flight finish and be stored; the second aborts them.\n\n' +
        'A run stopped by an error that repeats for every sample (a refused key, a model that does not exist, a refused request shape) left the\n' +
        'samples that got it unfinished: fix the cause and resume, no --retry-errors needed (a key comes from the environment; --base-url can be\n' +
        'given here). Samples that ended in other errors are called again only with --retry-errors.\n\n' +
        'Exit codes: 0 finished, 2 bad input or the run is owned by another process, 3 some samples ended in error, 130 interrupted, 1 unexpected failure.\n\n' +
        'Examples:\n  assay resume 20250101-120000-ab12\n  assay resume 20250101-120000-ab12 --retry-errors\n  assay resume 20250101-120000-ab12 --max-cost 40 --queue redis://queue:6379 --db postgres://db/evals',
    );
  addEngineOptions(resume).action(async (runId: string, flags: ResumeFlags, command: Command) => setExitCode(await resumeCommand(runId, flags, command)));
}
