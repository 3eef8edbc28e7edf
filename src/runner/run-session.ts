import { InputError, parseModelId, type GenerateSettings, type ReferenceAnswerers } from '../core/index.js';
import { judgeSettingsOf } from '../core/judge-settings.js';
import type { EngineSettings } from '../core/engine-settings.js';
import type { PreparedTask, Task } from '../benchmarks/task.js';
import type { LimiterFactory } from '../models/middleware/limiter.js';
import { Model, modelSettingsOf } from '../models/middleware/model.js';
import { RunSecrets } from '../models/http/redact-secrets.js';
import { KNOWN_PRICES } from '../models/pricing.js';
import { createProvider } from '../models/registry.js';
import type { ModelProvider } from '../models/spec.js';
import type { JudgeConfig, RunRecord } from '../store/records.js';
import { totalSpend } from '../store/spend.js';
import type { Store } from '../store/store.js';
import { Budget, formatUsd, type BudgetFactory, type RunBudget } from './budget.js';
import type { ProgressEvent } from './execute.js';
import type { JudgeStage } from './judging.js';
import type { LeaseSettings } from './run-lease.js';
import { checkRecordedOutputs } from './recorded-outputs.js';
import type { AssayConfig } from '../config/load-config.js';
import { buildDeclaredModel, checkDeclarationsUnchanged, isDeclaredName } from './declared-models.js';

/**
 * What a session of a run (start, resume, a queue worker) is given by its caller: the store, its
 * stops and lease, the keys, where limits and spend are kept, and whom to tell. A library caller's
 * one bag; the session built from it (`RunSession`) is what the run's work reads.
 */
export interface RunDependencies {
  readonly store: Store;
  /** Providers built in code, by model id (tests, library users); others come from the registry. */
  readonly providers?: Readonly<Record<string, ModelProvider>>;
  /** Aborts the calls in flight (and starts no new sample): what a stop must not wait for. */
  readonly signal?: AbortSignal;
  /**
   * Starts no new sample but lets the calls in flight finish and be stored, so a resume does not
   * pay for them again (the CLI's first Ctrl-C). The run then ends `interrupted`.
   */
  readonly stop?: AbortSignal;
  /** The run's lease (see `HeldLease`): default 30 s to live, renewed every 5 s. */
  readonly lease?: Partial<LeaseSettings>;
  readonly onProgress?: (event: ProgressEvent & { runId: string }) => void;
  /** Credentials for providers; kept out of the run record, the store and the logs. */
  readonly secrets?: { readonly openaiApiKey?: string };
  /** Called once the run exists in the store, before any model call. */
  readonly onRunCreated?: (run: RunRecord) => void;
  /** Things the user should know that do not stop the run (e.g. a judge grading its own outputs). */
  readonly onWarning?: (message: string) => void;
  /** Where the models' requests/tokens-per-minute limits live: in this process by default; `redisLimiters` shares them with every process on one Redis (`--shared-limits`). */
  readonly limiters?: LimiterFactory;
  /** Waits before a retry from this long on are told once per model (default 5 s; tests shorten it). */
  readonly retryNoticeMs?: number;
  /**
   * The config file whose `models:` the run's declared names (ids without `:`) are built from. A
   * session continuing a run (a resume, a worker) is refused when a declaration changed.
   */
  readonly config?: AssayConfig;
  /** Where declared models read their keys and `${VAR}`s (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Who a refused declaration names (default "this session"; "the resume", "this worker"). */
  readonly sessionName?: string;
  /** Makes the run's `--max-cost` budget: `Budget` in this process by default; `fleetBudgets` keeps the spend in Redis for workers sharing one run. */
  readonly budgets?: BudgetFactory;
}


/**
 * One session of a run, built once (`openSession`) by start, resume and a queue worker alike:
 * the run, its prepared task, the engine settings it calls with, every role's model with the
 * same middleware (cache, limits, retries, cost) and one set of the run's secrets, and its
 * spending cap. What a sample's work reads (`SampleStage`) and what `executeSamples` drives.
 */
export interface RunSession {
  readonly run: RunRecord;
  readonly store: Store;
  /** The task as prepared for this session: it scores (and grades) the outputs. */
  readonly prepared: PreparedTask;
  /** The sampling settings every request of the run carries (`run.settings`). */
  readonly settings: GenerateSettings;
  /** The engine settings this session calls with: the run's, with those a resume or a worker gives in their place. */
  readonly engine: EngineSettings;
  /** The models under test, in the run's order. */
  readonly models: readonly Model[];
  /** Grades the outputs the task cannot score alone. */
  readonly judge?: JudgeStage;
  /** The simulated user of a task whose solver talks to the models under test (`--user-model`). */
  readonly user?: Model;
  /** The run's spending cap, when it has one. */
  readonly budget?: RunBudget;
  /** Every key the session's models send: none may stay in what is stored or shown. */
  readonly secrets: RunSecrets;
  /** Ends every model's connections (and limiters). */
  close(): Promise<void>;
}

/**
 * Builds a session of `run`: every role — the models under test, the judge, the simulated user —
 * with one set of the run's secrets, so each model's outputs and errors are redacted of every key
 * the session sends; then its spending cap, which every paid model needs a price for (refused,
 * with the models closed, before anything is called). `samples` says which samples each model is
 * asked for, to check a replay file against them; `task`'s reference answerers are how its
 * `baseline:` models answer (`Task.baselines`).
 */
export async function openSession(
  run: RunRecord,
  task: Pick<Task, 'baselines'>,
  prepared: PreparedTask,
  engine: EngineSettings,
  deps: RunDependencies,
  samples: SessionSamples,
): Promise<RunSession> {
  // Before any model is built: the declared models are those the run recorded, and all they need is here.
  checkDeclarationsUnchanged(run, deps.config, deps.env ?? process.env, deps.sessionName ?? 'this session');
  const secrets = new RunSecrets();
  const build: ModelBuild = { run, engine, deps, secrets, ...(task.baselines ? { answerers: task.baselines.answerers } : {}) };
  const models = await buildModels(build, samples);
  const built: Model[] = [...models];
  const close = async (): Promise<void> => void (await Promise.all(built.map((m) => m.close())));
  try {
    const judge = await buildJudge(build);
    if (judge) built.push(judge.model);
    const user = run.userModel !== undefined ? await buildModel(run.userModel, build) : undefined;
    if (user) built.push(user);
    // The judge is priced last, as before: a missing price names a model under test first.
    const budget = await budgetFor(run, engine, [...models, ...(user ? [user] : []), ...(judge ? [judge.model] : [])], deps);
    return { run, store: deps.store, prepared, settings: run.settings, engine, models, secrets, close, ...(judge ? { judge } : {}), ...(user ? { user } : {}), ...(budget ? { budget } : {}) };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/**
 * The run's spending cap, when it has one. Every paid model (and the judge) needs a price, or the
 * cap could not be kept: refused before the run starts. A resumed run counts what it spent before.
 */
async function budgetFor(run: RunRecord, engine: EngineSettings, models: readonly Model[], deps: RunDependencies): Promise<RunBudget | undefined> {
  const cap = engine.maxCostUsd;
  if (cap === undefined) return undefined;
  if (!Number.isFinite(cap) || cap <= 0) throw new InputError(`--max-cost must be a positive amount of USD, got ${cap}`);
  const unpriced = models.find((m) => m.provider.billed !== false && !m.settings.price);
  if (unpriced) {
    throw new InputError(`--max-cost needs the price of every paid model, and ${unpriced.id} has none known: give --price ${unpriced.id}=IN/OUT (USD per million input/output tokens)`);
  }
  const before = totalSpend(await deps.store.runSpend(run.id));
  if (before.unpriced > 0) deps.onWarning?.(`${before.unpriced} earlier calls of run ${run.id} have no known cost: the $${formatUsd(before.usd)} counted against --max-cost leaves them out`);
  return deps.budgets ? deps.budgets({ runId: run.id, capUsd: cap, spentBeforeUsd: before.usd }) : new Budget(cap, before.usd);
}

/** The samples a session asks its models for: every sample id of the run, and those each model still has to answer. */
export interface SessionSamples {
  sampleIds(): readonly string[];
  toCall(model: Model): Promise<readonly string[]>;
}

/**
 * Builds the run's models and checks those that answer only recorded samples (replay) against
 * the samples this session asks each of them for. Replay files are read first: building another
 * provider can be costly (a `local:hf:` model is downloaded when it is built), and a file made
 * for other samples must stop the run before that. Warnings are shown only once every check has
 * passed, so a refused run says one thing.
 */
async function buildModels(build: ModelBuild, session: SessionSamples): Promise<Model[]> {
  const { run, deps } = build;
  const replayFirst = [...run.models].sort((a, b) => Number(!isReplay(a)) - Number(!isReplay(b)));
  const built = new Map<string, Model>();
  const warnings: string[] = [];
  for (const id of replayFirst) {
    const model = await buildModel(id, build);
    if (model.provider.sampleIds !== undefined) {
      const scope = { task: run.task, seed: run.seed, sampleIds: session.sampleIds(), toCall: await session.toCall(model) };
      warnings.push(...checkRecordedOutputs(model.provider, scope));
    }
    built.set(id, model);
  }
  for (const warning of warnings) deps.onWarning?.(warning);
  return run.models.map((id) => built.get(id) as Model);
}

const isReplay = (id: string): boolean => !isDeclaredName(id) && parseModelId(id).provider === 'replay';

/** The judge's model, with the same middleware as the models under test (cache, limits, retries, cost, the run's secrets). */
async function buildJudge(build: ModelBuild): Promise<JudgeStage | undefined> {
  const { run } = build;
  if (!run.judge) return undefined;
  return { model: await buildModel(run.judge.model, build), settings: judgeSettingsOf(run.seed, run.judge) };
}

/**
 * What every model of a session is built from: the run, the engine settings it calls with, the
 * caller's dependencies, the session's one set of secrets, and the task's reference answerers
 * (`Task.baselines`), which a `baseline:` model answers with.
 */
interface ModelBuild {
  readonly run: RunRecord;
  readonly engine: EngineSettings;
  readonly deps: RunDependencies;
  readonly secrets: RunSecrets;
  readonly answerers?: ReferenceAnswerers;
}

/** One model of a session; `secrets` is the session's one set, which its provider's join: every model's outputs and errors are redacted of all of them. */
async function buildModel(id: string, build: ModelBuild): Promise<Model> {
  const { run, engine, deps, secrets, answerers } = build;
  if (isDeclaredName(id) && deps.config && !deps.providers?.[id]) {
    // A declared model: its own endpoint, key and settings; the run's price for it (--price) still wins, as for any model.
    const declared = await buildDeclaredModel(id, deps.config, deps.env ?? process.env, run.seed);
    secrets.add([declared.key]);
    const price = engine.prices?.[id] ?? declared.settings.price;
    const settings = { ...modelSettingsOf(engine, { ...(deps.retryNoticeMs !== undefined ? { retryNoticeMs: deps.retryNoticeMs } : {}) }), ...declared.settings, ...(price ? { price } : {}) };
    return new Model({ provider: declared.provider, settings, cache: deps.store, ...(deps.limiters ? { limiters: deps.limiters } : {}), ...(deps.onWarning ? { onNotice: deps.onWarning } : {}), secrets });
  }
  const provider = await createProvider(id, {
    seed: run.seed,
    ...(answerers ? { referenceAnswerers: answerers } : {}),
    connections: engine.concurrency,
    ...(engine.openaiBaseURL ? { openaiBaseURL: engine.openaiBaseURL } : {}),
    ...(deps.secrets?.openaiApiKey ? { openaiApiKey: deps.secrets.openaiApiKey } : {}),
    ...(deps.providers ? { custom: deps.providers } : {}),
  });
  const price = engine.prices?.[id] ?? KNOWN_PRICES[id];
  // The middleware reads its share of the run's settings (`ModelSettings`); the price is the model's own.
  const settings = modelSettingsOf(engine, { ...(price ? { price } : {}), ...(deps.retryNoticeMs !== undefined ? { retryNoticeMs: deps.retryNoticeMs } : {}) });
  return new Model({ provider, settings, cache: deps.store, ...(deps.limiters ? { limiters: deps.limiters } : {}), ...(deps.onWarning ? { onNotice: deps.onWarning } : {}), secrets });
}
