import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { InputError } from '../core/index.js';
import { findTask } from '../benchmarks/registry.js';
import type { AssayConfig } from '../config/load-config.js';
import { validateSuite, type SuiteDeclaration } from '../config/index.js';
import { checkModelsReady } from '../config/preflight.js';
import { appendStepSummary, renderGateTable, renderStepSummary, taskCatalog, writeJUnit } from '../gates/index.js';
import { checkRepeats, type RunSpec } from '../runner/run-spec.js';
import { judgeSpecOf, type JudgeFlags } from './judge-spec.js';
import { GIVE_A_JUDGE, newRunRecord, type RunDependencies } from '../runner/run.js';
import type { RunSummary } from '../analysis/summary.js';
import { decideStoredSuiteRun, runSuite, storedSuiteRun, type SuiteRunResult } from '../suites/run-suite.js';
import { resultOfRecord } from '../suites/stored-gates.js';
import { baselineProblem } from '../suites/baseline.js';
import { suiteRunsIn } from '../suites/membership.js';
export { storedSuiteRun };
import type { Store } from '../store/store.js';
import type { ResolvedDataDir } from '../datasets/data-dir.js';
import { engineFrom, type EngineFlags } from './engine-options.js';
import { addTaskOptions, declaredOptions, readsOwnData, taskOptionsFrom, type TaskFlags } from './task-options.js';
import { dataReady } from './task-data.js';
import { printErr, printOut } from './terminal.js';
import { EXIT } from './shared.js';

/** The flags of `assay run` a suite run reads (the engine's, the store's, the outputs'). */
export interface SuiteFlags extends EngineFlags, JudgeFlags {
  /** The models' sampling settings, as `assay run` takes them (absent on a resume: each member run keeps its own). */
  temperature?: number;
  maxTokens?: number;
  json?: boolean;
  junit?: string;
  /** `--baseline <suite-run or run>`: replaces the suite's `regression.baseline` (its margin stays). */
  baseline?: string;
  download: boolean;
  db: string;
}

/**
 * `assay run --suite NAME`, before anything runs: the suite checked against the task registry,
 * `repeats:` given to every entry's run (`RunSpec.repeats`), each entry's options read as its task's flags would be (the
 * same checks and defaults as `assay run`; paths relative to the config file), its judge and
 * simulated user, and every declared model's variables and files. Throws InputError (exit 2).
 */
export function planSuite(config: AssayConfig, name: string, flags: SuiteFlags, dataDir: ResolvedDataDir): { suite: SuiteDeclaration; specs: RunSpec[] } {
  let suite = validateSuite(config, taskCatalog(), name) as SuiteDeclaration;
  const at = `${config.file}:${suite.source.line}: suites.${suite.name}`;
  const repeats = suite.repeats !== undefined && suite.repeats > 1 ? checkRepeats(suite.repeats, `${at}.repeats`) : undefined;
  if (flags.baseline !== undefined) {
    if (suite.regression === undefined) throw new InputError(`--baseline ${flags.baseline}: suite ${suite.name} has no regression: { baseline, margin } to compare with (${at})`);
    suite = { ...suite, regression: { ...suite.regression, baseline: flags.baseline } };
  }
  const engine = engineFrom(flags, []);
  const specs = suite.tasks.map((entry, i): RunSpec => {
    const taskFlags = entryFlags(config, entry.task, entry.options ?? {}, `${at}.tasks[${i}].options`);
    const judge = entry.judge ?? suite.judge;
    const userModel = entry.userModel ?? suite.userModel;
    return {
      task: entry.task,
      models: suite.models,
      seed: taskFlags.seed,
      options: taskOptionsFrom(entry.task, taskFlags),
      settings: {
        ...(flags.temperature !== undefined ? { temperature: flags.temperature } : {}),
        ...(flags.maxTokens !== undefined ? { maxTokens: flags.maxTokens } : {}),
      },
      dataDir: dataDir.dir,
      engine,
      // The judge's settings from the flags, as `assay run TASK --judge` reads them.
      ...(judge !== undefined ? { judge: judgeSpecOf(judge, entry.task, flags) } : {}),
      ...(userModel !== undefined ? { userModel } : {}),
      ...(repeats !== undefined ? { repeats } : {}),
    };
  });
  const declared = [...new Set(specs.flatMap((s) => [...s.models, ...(s.judge ? [s.judge.model] : []), ...(s.userModel !== undefined ? [s.userModel] : [])]))].filter((id) => !id.includes(':'));
  checkModelsReady(config, declared, process.env);
  return { suite, specs };
}

/**
 * An entry's `options:` read by the flags of `assay run` (`limit: 5` as `--limit 5`, `per-tool`
 * as `--per-tool`, a list as the flag repeated, `true` as the bare flag), so a suite takes
 * exactly what the command line takes. A path option is resolved against the config file's folder.
 */
function entryFlags(config: AssayConfig, taskName: string, options: Readonly<Record<string, string | number | boolean | readonly string[]>>, at: string): TaskFlags {
  // The top-level path options (`tools`) of any task, as before, and the task's own.
  const pathKeys = new Set([...declaredOptions().filter((o) => o.topLevel), ...(findTask(taskName).ownOptions ?? [])].filter((o) => o.kind === 'path').map((o) => o.key));
  const base = path.dirname(config.file);
  const argv: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    const flag = `--${key}`;
    const camel = key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const resolve = (v: string): string => (pathKeys.has(camel) || pathKeys.has(key) ? path.resolve(base, v) : v);
    if (value === true) argv.push(flag);
    else if (value === false) continue;
    else if (Array.isArray(value)) for (const v of value) argv.push(flag, resolve(String(v)));
    else argv.push(flag, resolve(String(value)));
  }
  const parser = addTaskOptions(new Command('options'))
    .addOption(new Option('--parser <which>').choices(['strict', 'paper']).default('strict'))
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined })
    .allowExcessArguments(false);
  try {
    parser.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) throw new InputError(`${at}: ${error.message.replace(/^error: /, '')}`);
    throw error;
  }
  return parser.opts<TaskFlags>();
}

/** Runs a planned suite in an open store and prints its table (or JSON), the JUnit file and the step summary; returns the exit code. */
export async function runPlannedSuite(
  store: Store,
  plan: { suite: SuiteDeclaration; specs: RunSpec[] },
  flags: SuiteFlags,
  session: { stop: AbortSignal; depsFor(entry: number, spec: RunSpec): RunDependencies; dataDir: ResolvedDataDir; config?: AssayConfig; resumeMember?(runId: string, entry: number): Promise<RunSummary> },
  continued?: string,
): Promise<number> {
  const { suite, specs } = plan;
  for (const spec of specs) {
    if (readsOwnData(spec.options)) continue;
    if (!(await dataReady(spec.task, { dataDir: session.dataDir, download: flags.download, signal: session.stop }))) return EXIT.interrupted;
  }
  // Before the first entry runs (nothing recorded if one is refused): a named baseline of this
  // suite, and each entry's run as startRun checks it (options, case files, judge, pinned data).
  if (suite.regression !== undefined) {
    const problem = await baselineProblem(store, suite, suite.regression.baseline);
    if (problem !== undefined) throw new InputError(`${flags.baseline !== undefined ? '--baseline' : `${suite.source.file}:${suite.source.line}: suites.${suite.name}.regression.baseline`}: ${problem}`);
  }
  const started = continued !== undefined ? suiteRunsIn(await store.listRuns()).get(continued)?.members : undefined;
  for (const [i, spec] of specs.entries()) {
    if (started?.get(i)?.task === spec.task) continue;
    try {
      await newRunRecord(spec, { stop: session.stop, ...(session.config !== undefined ? { config: session.config } : {}) });
    } catch (error) {
      // Said as the suite is written: where the entry is, and a judge given with `judge:`, not --judge.
      if (!(error instanceof InputError)) throw error;
      const entryAt = `${suite.source.file}:${suite.source.line}: suites.${suite.name}.tasks[${i}]`;
      throw new InputError(`${entryAt}: ${error.message.replace(GIVE_A_JUDGE, 'give the entry or the suite a judge: (a name from models: or a provider:model id)')}`);
    }
  }
  const result = await runSuite(store, suite, specs, {
    stop: session.stop,
    depsFor: (i) => session.depsFor(i, specs[i] as RunSpec),
    onEntry: (i, spec) => printErr(`suite ${suite.name}: entry ${i + 1} of ${specs.length}, ${spec.task}\n`),
    ...(session.resumeMember ? { resumeMember: session.resumeMember } : {}),
  }, continued);
  const strict = suite.strict === true;
  if (flags.junit !== undefined) writeJUnit(flags.junit, result.results, { suite: suite.name, strict });
  appendStepSummary(renderStepSummary(result.results, { suite: suite.name, strict }));
  printSuiteResult(result, strict, Boolean(flags.json));
  return result.exitCode;
}

function printSuiteResult(result: SuiteRunResult & { readonly decidedAt?: string }, strict: boolean, json: boolean, note?: string): void {
  if (json) {
    printOut(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  printOut(`suite run ${result.suiteRun}: ${result.suite}, runs ${result.runs.map((r) => r.run ?? `${r.task} (not started)`).join(', ')}${result.baseline !== undefined ? `; baseline ${result.baseline}` : ''}\n`);
  if (note !== undefined) printOut(`${note}\n`);
  printOut(renderGateTable(result.results, { strict }));
}

/**
 * `assay show <suite-run>`: the suite run's gates as it recorded them when it ended (the config
 * file is not read); nothing is called. A suite run that recorded none (interrupted, or ended
 * before gates were recorded) has them decided again from its member runs' stored results with
 * the suite as the config file declares it now, and says so (`--json`: no `decidedAt`).
 */
export async function showSuiteRun(store: Store, suiteRun: string, config: AssayConfig | undefined, json: boolean): Promise<void> {
  const recorded = await store.suiteRun(suiteRun);
  if (recorded !== undefined) {
    printSuiteResult(resultOfRecord(recorded), recorded.strict, json, `gates as recorded when the suite run ended (${recorded.decidedAt})`);
    return;
  }
  const stored = await storedSuiteRun(store, suiteRun);
  if (!stored) throw new InputError(`no suite run "${suiteRun}" in the store`);
  if (!config) throw new InputError(`suite run ${suiteRun} ran suite ${stored.suite} and recorded no gates (interrupted, or older than recorded gates): they are decided again from the config file that declares it (--config FILE, $ASSAY_CONFIG or ./assay.yaml)`);
  const suite = validateSuite(config, taskCatalog(), stored.suite) as SuiteDeclaration;
  if (suite.tasks.length !== stored.entries) printErr(`warning: suite ${suite.name} has ${suite.tasks.length} entries now, ${stored.entries} when suite run ${suiteRun} ran: entries are matched by position\n`);
  printSuiteResult(await decideStoredSuiteRun(store, suite, suiteRun), suite.strict === true, json, `suite run ${suiteRun} recorded no gates: decided again from its runs' stored results, with suite ${suite.name} as ${config.file} declares it now`);
}
