import { Command, Option } from 'commander';
import { allTasks } from '../benchmarks/registry.js';
import type { ExportFormat } from '../report/export.js';
import { modifiedDataLine, renderRunList, renderSummary } from '../report/console.js';
import { runMetricDeclarationsOf } from '../report/metric-format.js';
import { readRunState } from '../store/run-state.js';
import { runRecordView } from '../store/run-events.js';
import { summarizeStoredRun } from '../runner/run.js';
import { requireRun } from '../store/require-run.js';
import { recordedModifiedData } from '../analysis/recorded-run.js';
import { registerDataCommands } from './data-command.js';
import { rescoreRun, type RescoreOutcome } from '../analysis/rescore.js';
import { parserOf } from '../analysis/score-parsers.js';
import { applyReviewFile } from '../analysis/review.js';
import { registerRunCommands } from './run-command.js';
import { registerWorkerCommand } from './worker-command.js';
import { registerSamplesCommand } from './samples-command.js';
import { registerAgreementCommand } from './agreement-command.js';
import { registerCompareCommand } from './compare-command.js';
import { EXIT, checkedDataDir, dataDirOption, dbOption, jsonOption, openOutFile, unusedDbOption, withStore } from './shared.js';
import { registerReportCommand } from './report-command.js';
import { registerMigrateCommand } from './migrate-command.js';
import { registerViewCommand } from './view-command.js';
import { registerDemoCommand } from './demo-command.js';
import { registerShowCommand } from './show-command.js';
import { printDataPart, printErr, printOut } from './terminal.js';
import { readerGone } from './closed-pipe.js';

export { EXIT } from './shared.js';

function printRescore(outcome: RescoreOutcome, json: boolean): void {
  const { summary, rescored, changed, keptJudged, storedOptions, scoredWith } = outcome;
  const parserChanged = parserOf(storedOptions) !== parserOf(scoredWith);
  if (json) {
    const rescore = { outputs: rescored, changed, ...(keptJudged > 0 ? { keptJudged } : {}), storedOptions, scoredWith };
    printOut(`${JSON.stringify({ ...summary, rescore })}\n`);
    return;
  }
  const lines = [`rescored run ${summary.run}: ${rescored} stored output(s) re-parsed, ${changed} score(s) changed; no model was called`];
  if (keptJudged > 0) lines.push(`note: ${keptJudged} output(s) kept their stored judgment: a judge prompt they need is not in the call cache (it changed, or was never answered)`);
  if (parserChanged) {
    lines.push(`note: the run's options say --parser ${parserOf(storedOptions)}; these scores were recomputed with --parser ${parserOf(scoredWith)} (the run record is unchanged)`);
  }
  printOut(`${lines.join('\n')}\n\n${renderSummary(summary, runMetricDeclarationsOf(summary.task))}\n`);
}

/** The pages until stdout's reader is gone (`assay export … | head`): the rest is not read. */
async function* whileStdoutOpen<T>(pages: AsyncIterable<T>): AsyncGenerator<T> {
  for await (const page of pages) {
    if (process.stdout.destroyed || readerGone(process.stdout)) return;
    yield page;
  }
}

/** Registers every `assay` command on `program`. */
export function registerCommands(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('list')
    .description('list the tasks assay can run')
    .addOption(jsonOption())
    .addOption(unusedDbOption())
    .action((flags: { json?: boolean }) => {
      if (flags.json) {
        printOut(`${JSON.stringify(allTasks.map((t) => ({ name: t.name, version: t.version, description: t.description })))}\n`);
        return;
      }
      const width = Math.max(...allTasks.map((t) => t.name.length));
      printOut(allTasks.map((t) => `${t.name.padEnd(width)}  ${t.description}`).join('\n') + '\n');
    });

  registerRunCommands(program, setExitCode);
  registerDemoCommand(program, setExitCode);
  registerWorkerCommand(program, setExitCode);
  registerSamplesCommand(program, setExitCode);
  registerAgreementCommand(program);
  registerCompareCommand(program, setExitCode);

  program
    .command('runs')
    .description('list the runs in the database, newest first')
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
Status: running (a process holds the run's lease now), stale (stored as running, but no
process holds a live lease: it stopped without saying so, e.g. kill -9; "assay resume" it),
interrupted, finished, failed. A run interrupted because a model's errors repeat for every
sample (a wrong key, a model that does not exist) is followed by why and what to fix. With
--json, "status" is that state, "lease" the stored lease, "engine.failFastStops" the stops.`,
    )
    .action(async (flags: { json?: boolean; db: string }) => {
      await withStore(flags.db, async (store) => {
        // Whether a process is on a run is read from its lease now (a killed one shows "stale").
        const runs = await Promise.all((await store.listRuns()).map(async (run) => ({ run, ...(await readRunState(store, run)) })));
        if (flags.json) {
          const rows = runs.map(({ run, state, lease }) => ({ ...runRecordView(run), status: state, ...(lease ? { lease } : {}) }));
          printOut(`${JSON.stringify(rows)}\n`);
        } else printOut(`${renderRunList(runs.map(({ run, state }) => ({ ...run, state })))}\n`);
      });
    });

  registerShowCommand(program);

  program
    .command('rescore')
    .description('re-parse and re-score every stored output of a run with the current scorer, store the new scores and print the new metrics; no model is called')
    .argument('<run>', 'run id (or a unique prefix)')
    .addOption(new Option('--parser <which>', "answer parser to score with instead of the run's (MetaTool tasks): strict (assay's reading) or paper (the paper's answer matching)").choices(['strict', 'paper']))
    .addOption(dataDirOption('data folder, if not the one the run was made with'))
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
The run record keeps the options it was made with; when --parser differs, the output says
so, and "assay show" notes it. A judged run's scorer runs again with its judge answered from
the call cache alone: a judgment whose prompt is not in the cache (it changed) keeps its stored
verdict and is counted. With --json the summary gets a "rescore" field:
{outputs, changed, keptJudged (when some were kept), storedOptions, scoredWith}.

Example:
  assay rescore 20250101-120000-ab12 --parser paper`,
    )
    .action(async (runId: string, flags: { parser?: 'strict' | 'paper'; dataDir?: string; json?: boolean; db: string }) => {
      await withStore(flags.db, async (store) => {
        const dataDir = checkedDataDir(flags.dataDir);
        const outcome = await rescoreRun(store, runId, { ...(flags.parser ? { parser: flags.parser } : {}), ...(dataDir ? { dataDir } : {}) });
        printRescore(outcome, Boolean(flags.json));
      });
      setExitCode(EXIT.ok);
    });

  program
    .command('export')
    .description('write one row per sample and model: prompt, candidates, gold, raw output, parsed answer, score')
    .argument('<run>', 'run id (or a unique prefix)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['jsonl', 'csv', 'tsv']).default('jsonl'))
    .addOption(new Option('-o, --out <file>', 'write to this file instead of stdout; it is replaced only once the export is whole (a failed or stopped export leaves it as it was)'))
    .addOption(new Option('-m, --model <id>', 'only this model'))
    .addOption(dbOption())
    .addHelpText('after', '\nCSV/TSV cells that hold lists or objects (candidates, gold, answer) carry them as JSON. For FunctionChat runs, --format tsv writes upstream\'s report columns (serial_num, is_pass, type_of_output, ground_truth, acceptable_arguments, model_output, reasoning, query, tools) plus sample_id, model, tools_type.\n\nExample:\n  assay export 20250101-120000-ab12 --format csv --out results.csv')
    .action(async (runId: string, flags: { format: ExportFormat; out?: string; model?: string; db: string }) => {
      await withStore(flags.db, async (store) => {
        const run = await requireRun(store, runId);
        // Loaded here: the CSV writer is only this command's (issue 29: every run paid for it).
        const [{ exportHeadOf, exportPairPages }, { writeExportParts }] = await Promise.all([import('../report/export-pages.js'), import('../report/task-export.js')]);
        const head = exportHeadOf(run, flags.model);
        const modified = recordedModifiedData(run);
        // Said on stderr too: a task's own layout (FunctionChat's TSV: upstream's columns) has no column for it.
        if (modified.length > 0) printErr(`note: run ${run.id}: ${modifiedDataLine(modified)}\n`);
        // The rows a page of samples at a time, each page written before the next is read (the
        // report's rows, as the report builds them: its memory is a page's, not the run's).
        const pages = exportPairPages(store, run, flags.model);
        if (!flags.out) {
          await writeExportParts(head, whileStdoutOpen(pages), flags.format, printDataPart);
          return;
        }
        const out = openOutFile(flags.out);
        let rows: number;
        try {
          // A turn of the event loop after each part: the store's reads never wait, so without it a
          // Ctrl-C would only be handled after the last page (then removing the part file, see openOutFile).
          rows = await writeExportParts(head, pages, flags.format, (text) => {
            out.write(text);
            return new Promise((resolve) => setImmediate(resolve));
          });
        } catch (error) {
          out.abort();
          throw error;
        }
        out.commit();
        printErr(`wrote ${rows} rows to ${flags.out}\n`);
      });
    });

  program
    .command('review')
    .description('apply a human reviewer\'s verdicts to a run: they override the judge\'s in reviewed metrics, and both are kept')
    .argument('<run>', 'run id (or a unique prefix)')
    .requiredOption('--apply <file.csv>', 'CSV with a header: item (the sample id), verdict (pass/fail), note; plus model when the run has several')
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
The summary then shows, per model, the judge-only metrics and a "reviewed" block: the metrics
with the reviewers' verdicts, how many items were reviewed and how many verdicts changed.
A verdict means what a pass means for the task: an exact or judged match (FunctionChat, MetaTool),
an aligned summary, no defect (groundedness: a grade at least the run's --threshold; harm: a
severity the guideline does not call a defect). A reviewed fail counts as a defect (or a fail) in
the reviewed rates, a no verdict reviewed is decided, and the judge's finer grading of an item
whose verdict a reviewer overruled (a 1–5 grade, claims, a severity) is left out of the figures
made of it (mean score, distribution, claim support). For harm and groundedness runs the block
also gives the defect rate corrected for the judge's error measured on the reviews (PPI), with its
95% interval and how many reviews in all would halve it: review a random sample of the items for
it to hold (docs/harm.md). In a run with repeats, a review is of each item's first answer
(repeat 0), the one the run's own metrics and the report's review column read.
Every line is checked before anything is stored. A later file's verdict for the same item
replaces the earlier one.

Example (reviewed.csv):
  item,verdict,note
  singlecall-12-4_close,pass,"the unit is implied by the query"
  assay review 20250101-120000-ab12 --apply reviewed.csv`,
    )
    .action(async (runId: string, flags: { apply: string; json?: boolean; db: string }) => {
      await withStore(flags.db, async (store) => {
        const outcome = await applyReviewFile(store, runId, flags.apply);
        const summary = await summarizeStoredRun(store, outcome.runId);
        if (flags.json) {
          printOut(`${JSON.stringify({ ...summary, review: { applied: outcome.applied, changed: outcome.changed } })}\n`);
        } else {
          printOut(`applied ${outcome.applied} review(s) from ${flags.apply} to run ${outcome.runId}: ${outcome.changed} verdict(s) differ from the stored ones\n\n${renderSummary(summary, runMetricDeclarationsOf(summary.task))}\n`);
        }
      });
      setExitCode(EXIT.ok);
    });

  registerReportCommand(program);
  registerMigrateCommand(program, setExitCode);
  registerViewCommand(program);
  registerDataCommands(program, setExitCode);
}
