// FunctionChat's judged runs on two builds of assay, compared row by row: `npm run build`, then
//
//   node dist/src/perf/judge-identity.js run <dist dir of a build> <out dir>   # the runs, into <out dir>/*.db, and <out dir>/snapshot.json
//   node dist/src/perf/judge-identity.js compare <a/snapshot.json> <b/snapshot.json>
//   node dist/src/perf/judge-identity.js fingerprints <snapshot.json>            # what test/fixtures/functionchat-judge-identity.json holds
//
// `run` loads the runner, the store and the task registry from the given build (another checkout's
// `dist`, built with its own `npm run build`), so the same scenarios (src/testing/functionchat-judge-scenario.ts)
// run on the code before and after a change. Needs the data in $ASSAY_DATA_DIR or ../shared/datasets.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fingerprints, runFunctionChatJudgeScenarios, snapshotDatabase, type DatabaseSnapshot, type ScenarioApi } from '../testing/functionchat-judge-scenario.js';
import { testDataDir } from '../testing/test-data.js';

interface Snapshot {
  readonly returned: Readonly<Record<string, unknown>>;
  readonly databases: Readonly<Record<string, DatabaseSnapshot>>;
}

async function loadApi(dist: string): Promise<ScenarioApi> {
  const load = async (file: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(path.resolve(dist, 'src', file)).href)) as Record<string, unknown>;
  // A re-score is analysis/'s since issue 28; a build from before has it in runner/.
  const loadRescore = (): Promise<Record<string, unknown>> => load('analysis/rescore.js').catch(() => load('runner/rescore.js'));
  const [run, rescore, store, registry] = await Promise.all([load('runner/run.js'), loadRescore(), load('store/sqlite/sqlite-store.js'), load('benchmarks/registry.js')]);
  return {
    startRun: run['startRun'] as ScenarioApi['startRun'],
    resumeRun: run['resumeRun'] as ScenarioApi['resumeRun'],
    rescoreRun: rescore['rescoreRun'] as ScenarioApi['rescoreRun'],
    openSqliteStore: store['openSqliteStore'] as ScenarioApi['openSqliteStore'],
    findTask: registry['findTask'] as ScenarioApi['findTask'],
  };
}

function compare(a: Snapshot, b: Snapshot): number {
  let differences = 0;
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  for (const scenario of new Set([...Object.keys(a.databases), ...Object.keys(b.databases)])) {
    const left = a.databases[scenario];
    const right = b.databases[scenario];
    if (!left || !right) {
      say(`${scenario}: only in ${left ? 'the first' : 'the second'} snapshot`);
      differences++;
      continue;
    }
    const counts: string[] = [];
    for (const table of ['runs', 'samples', 'runTexts', 'calls', 'results'] as const) {
      const keys = new Set([...Object.keys(left[table]), ...Object.keys(right[table])]);
      let same = 0;
      for (const key of keys) {
        const l = JSON.stringify(left[table][key]);
        const r = JSON.stringify(right[table][key]);
        if (l === r) same++;
        else {
          differences++;
          if (differences <= 20) say(`${scenario}: ${table} ${key} differs:\n  ${l?.slice(0, 400)}\n  ${r?.slice(0, 400)}`);
        }
      }
      counts.push(`${table} ${same}/${keys.size}`);
    }
    const judgeCalls = Object.keys(right.steps).length;
    const steps = [...new Set(Object.values(right.steps).map((s) => s ?? '(none)'))].sort();
    const stepsBefore = [...new Set(Object.values(left.steps).map((s) => s ?? '(none)'))].sort();
    const sameReturned = JSON.stringify(a.returned[scenario]) === JSON.stringify(b.returned[scenario]);
    if (!sameReturned) differences++;
    say(`${scenario}: identical rows ${counts.join(', ')}; summaries returned ${sameReturned ? 'identical' : 'DIFFER'}; ${judgeCalls} judge calls, steps ${stepsBefore.join(' ')} → ${steps.join(' ')}`);
  }
  say(differences === 0 ? 'no difference' : `${differences} difference(s)`);
  return differences;
}

const [command, first, second] = process.argv.slice(2);
if (command === 'run' && first && second) {
  const outcome = await runFunctionChatJudgeScenarios(await loadApi(first), process.env['ASSAY_DATA_DIR'] ?? testDataDir(), second);
  const databases = Object.fromEntries(Object.entries(outcome.databases).map(([name, db]) => [name, snapshotDatabase(db)]));
  writeFileSync(path.join(second, 'snapshot.json'), `${JSON.stringify({ returned: outcome.returned, databases }, null, 1)}\n`);
  process.stdout.write(`${Object.keys(databases).length} scenarios run on ${first}: ${path.join(second, 'snapshot.json')}\n`);
} else if (command === 'compare' && first && second) {
  const read = (file: string): Snapshot => JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  process.exitCode = compare(read(first), read(second)) === 0 ? 0 : 1;
} else if (command === 'fingerprints' && first) {
  const snapshot = JSON.parse(readFileSync(first, 'utf8')) as Snapshot;
  const out = Object.fromEntries(Object.entries(snapshot.databases).map(([name, db]) => [name, fingerprints(db, snapshot.returned[name])]));
  process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
} else {
  process.stderr.write('usage: judge-identity.js run <dist dir> <out dir> | compare <a.json> <b.json> | fingerprints <snapshot.json>\n');
  process.exitCode = 2;
}
