import { Option, type Command } from 'commander';
import { parserOf, parsersInScores } from '../analysis/score-parsers.js';
import { renderExplain, renderReadings, renderSummary } from '../report/console.js';
import { readingsDeclarationsOf } from '../report/metric-format.js';
import { runSummaryView } from '../report/run-report.js';
import type { RunRecord } from '../store/records.js';
import { requireRun } from '../store/require-run.js';
import type { Store } from '../store/store.js';
import { configFrom, configOption } from './config-file.js';
import { checkedDataDir, dataDirOption, dbOption, jsonOption, withStore } from './shared.js';
import { printErr, printOut } from './terminal.js';

/**
 * A note when a run's stored scores were made with another answer parser than its record says
 * (after `assay rescore --parser`): the numbers shown are the stored scores', so say which.
 */
async function parserNote(store: Store, run: RunRecord): Promise<string | undefined> {
  const counts = await parsersInScores(store, run);
  const recorded = parserOf(run.options);
  if (counts.size === 0 || (counts.size === 1 && counts.has(recorded))) return undefined;
  const used = [...counts].map(([parser, n]) => `${parser} (${n} scores)`).join(', ');
  return `note: run ${run.id} was made with --parser ${recorded}, but its stored scores were computed with --parser ${used}, by assay rescore`;
}

/**
 * `assay show`: a run's metrics, or a suite run's gates. In a module of its own so that `assay show`
 * loads what it prints and no other command's code (`main.ts` registers it alone); the suite's
 * and the readings' code is loaded when the run asked for needs it.
 */
export function registerShowCommand(program: Command): void {
  program
    .command('show')
    .description('print the metrics of a stored run (recomputed from the stored scores; no model is called)')
    .argument('<run>', 'run id (or a unique prefix), or a suite run\'s id (suite-…: its gates as recorded when it ended; one that recorded none has them decided again from its runs, with the suite as the config file declares it now)')
    .addOption(dataDirOption('with --readings: data folder, if not the one the run was made with (the summary itself is read from the store alone)'))
    .addOption(new Option('--readings', "read the stored outputs with every answer parser the task offers (MetaTool: strict and paper), or a judged run's stored judgments as its sources count them (summaries: assay, the seed, DeepEval; groundedness: assay, the harm scale, Azure; harm: judged, lower bound, worst case), and print the metrics side by side; nothing is stored"))
    .addOption(new Option('--explain', 'after the metrics, what each one means (one line each: what is counted, its unit, which way is better, its interval, the readings it exists under); --json always carries each metric’s declaration as metric_declarations'))
    .addOption(configOption())
    .addOption(jsonOption())
    .addOption(dbOption())
    .action(async (runId: string, flags: { json?: boolean; db: string; dataDir?: string; readings?: boolean; explain?: boolean; config?: string }) => {
      const config = runId.startsWith('suite-') ? await configFrom(flags.config) : undefined;
      await withStore(flags.db, async (store) => {
        if (runId.startsWith('suite-')) {
          const { showSuiteRun } = await import('./suite-command.js');
          await showSuiteRun(store, runId, config, Boolean(flags.json));
          return;
        }
        if (flags.readings) {
          const { readRunBothWays } = await import('../analysis/readings.js');
          const readings = await readRunBothWays(store, runId, checkedDataDir(flags.dataDir));
          printOut(flags.json ? `${JSON.stringify(readings)}\n` : `${renderReadings(readings, readingsDeclarationsOf(readings.task))}\n`);
          return;
        }
        // What the run's report says of it, without its index and details: the summary (the state now), read a page at a time.
        const { summary, lease, statusNote, applicationTargetNote, metricDeclarations } = await runSummaryView(store, runId);
        const note = await parserNote(store, await requireRun(store, summary.run));
        if (note) printErr(`${note}\n`);
        if (flags.json) {
          // Every metric the run has with its declaration (additive: the summary's fields come first, as they were).
          printOut(`${JSON.stringify({ ...summary, ...(lease ? { lease } : {}), metric_declarations: metricDeclarations })}\n`);
          return;
        }
        const targetNote = applicationTargetNote ? `note: ${applicationTargetNote}\n` : '';
        printOut(`${renderSummary(summary, metricDeclarations)}\n${statusNote ? `${statusNote}\n` : ''}${targetNote}${flags.explain ? `\n${renderExplain(metricDeclarations)}\n` : ''}`);
      });
    });
}
