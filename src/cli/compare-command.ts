import { InvalidArgumentError, Option, type Command } from 'commander';
import { comparisonRegression, gateExitCode, renderGateTable, type GateResult } from '../gates/index.js';
import { renderComparison } from '../report/compare.js';
import { buildComparisonReport } from '../report/compare-report.js';
import { renderReportHtml } from '../report/html/html-report.js';
import { DEFAULT_DETAILS, parseDetailsPolicy, type DetailsPolicy } from '../report/run-report.js';
import { compareRuns } from '../analysis/compare/compare-runs.js';
import { dbOption, jsonOption, withStore, writeOutFile } from './shared.js';
import { printErr, printOut } from './terminal.js';

/** `assay compare <runA> <runB>`: two runs of one task, sample by sample, with paired statistics. */
export function registerCompareCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('compare')
    .description('compare two runs of the same task sample by sample: per metric B − A with a 95% interval and a paired test, and which samples newly fail or newly pass; read from the store (no model is called)')
    .argument('<runA>', 'the run to compare against (before), id or unique prefix')
    .argument('<runB>', 'the run compared (after), id or unique prefix')
    .addOption(new Option('-o, --out <file>', 'also write the comparison as a self-contained HTML page (with both runs\' reports) to this file'))
    .addOption(
      new Option('--details <which>', `with -o: which samples' full details each run carries: the changed, still failing, no-verdict and error samples first, then all, failing, or at most <n> rows (default ${DEFAULT_DETAILS.mode === 'limit' ? DEFAULT_DETAILS.limit : DEFAULT_DETAILS.mode})`).argParser(parseDetailsPolicy),
    )
    .addOption(
      new Option('--fail-on-regression <margin>', 'exit 4 when run B is worse than run A by more than MARGIN with 95% confidence: a pass rate\'s B − A interval wholly below −MARGIN (0.02 = 2 points)').argParser(parseMargin),
    )
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
Which models: a model in both runs is compared with itself (before/after a prompt change or a
mitigation); if each run has one model and they differ, those two are compared. Other models
are named and left out. Runs of different tasks, models that do not pair, and runs without a
sample in common are refused (exit 2).

Which samples: those with a result in both runs, paired by sample id when both runs stored the
same input for it (prompt and tools, compared by sha256): an id that names another question in
the other run (another --seed, other data) is counted as "input differs" and not paired; the
counts only in A and only in B are shown. A pair that ended in error on either side, or has no
verdict on a side, is counted apart and left out of the figures: never read as a fail.

Figures (B − A), from the stored scores (human reviews are not applied):
  pass rate  over samples with a pass or fail on both sides; 95% interval for paired
             proportions (Newcombe 1998, method 10); McNemar's exact binomial p on the
             samples that changed (and its continuity-corrected chi-square in --json)
  mean       of the task's number (a harm severity) over samples with one on both sides;
             95% paired percentile bootstrap interval; sign-flip permutation test p (exact up
             to 16 changed samples, else 10,000 seeded draws). Seeded: same runs, same output.
  buckets    newly failing (A pass, B fail), newly passing (A fail, B pass), still failing,
             unchanged (pass on both), no verdict, error; the console shows the first ids,
             --json lists them all.
Runs with repeats (--repeats k > 1, either run): the sample is the unit, its repeats being
correlated: per sample each side's share of passing repeats (or mean number) over its own
repeats, B − A with a percentile bootstrap over samples and a sign-flip test instead of
McNemar; the output says "paired by sample: N samples × up to k repeats, cluster bootstrap
over samples" (--json: "pairing"), and --fail-on-regression decides on that interval.

What a pass and the number are is the task's: harm tasks read pass as "no defect" and the
number as the severity; judged summaries pass when aligned; others read true/false as pass/fail
and a number as the number.

With -o, the page (one file, no network when viewed, every text from the runs shown as text)
draws per model pair each difference with its 95% interval (a forest plot), the tests and their
p, and the buckets, each sample in them opening run A's and run B's details side by side
(prompt, raw outputs, parsed answers, transcript, every call); the runs' own report pages
follow. Which samples carry details: see --details.

--fail-on-regression MARGIN (for CI; docs/suites.md): for each model pair, the pass rate's
B − A and its 95% interval (above) decide: the whole interval below −MARGIN is a regression;
an interval across −MARGIN is not one with 95% confidence; a pair with no sample decided in
both runs, or a task whose scores have no pass/fail reading, is inconclusive (not a regression).
A is the baseline, B the candidate. The console adds a table of the decision; --json adds a
"regression" object {margin, results, regressed}.

Exit codes: 0 compared (and, with --fail-on-regression, no regression found), 4 a regression
found, 2 bad input (unknown runs, runs of different tasks, models that do not pair, no sample in
common, a MARGIN that is not a number ≥ 0), 1 unexpected failure.

Examples:
  assay compare 20250101-120000-ab12 20250102-090000-cd34 --json
  assay compare 20250101-120000-ab12 20250102-090000-cd34 --fail-on-regression 0.02
  assay compare 20250101-120000-ab12 20250102-090000-cd34 -o compare.html`,
    )
    .action(async (runA: string, runB: string, flags: { json?: boolean; out?: string; details?: DetailsPolicy; db: string; failOnRegression?: number }) => {
      await withStore(flags.db, async (store) => {
        const comparison = flags.out ? undefined : await compareRuns(store, runA, runB);
        const report = flags.out ? await buildComparisonReport(store, runA, runB, flags.details ?? DEFAULT_DETAILS) : undefined;
        const shown = report?.comparison ?? (comparison as NonNullable<typeof comparison>);
        const margin = flags.failOnRegression;
        const regression: GateResult[] | undefined = margin === undefined ? undefined : comparisonRegression(shown, margin);
        // Without the flag the output is what it always was, byte for byte.
        if (flags.json) printOut(`${JSON.stringify(regression ? { ...shown, regression: { margin, results: regression, regressed: regression.some((r) => r.outcome === 'fail') } } : shown)}\n`);
        else printOut(regression ? `${renderComparison(shown)}\nregression (margin ${margin}, run ${shown.runA.id} the baseline):\n${renderGateTable(regression)}` : renderComparison(shown));
        // 0, or 4 (EXIT.gateFailed) when a pair regressed: no strict, no errors or stop here.
        if (regression) setExitCode(gateExitCode({ results: regression }));
        if (report && flags.out) {
          const html = renderReportHtml(report.bundle, { comparison: report.comparison });
          writeOutFile(flags.out, html);
          const included = report.bundle.runs.reduce((n, r) => n + r.detailsPolicy.included, 0);
          printErr(`wrote ${flags.out}: the comparison and 2 run reports, details for ${included} sample rows; ${(Buffer.byteLength(html) / 1e6).toFixed(2)} MB\n`);
        }
      });
    });
}

/** `--fail-on-regression`'s MARGIN: a number ≥ 0 (commander prints the refusal as one line, exit 2). */
function parseMargin(text: string): number {
  const margin = Number(text);
  if (text.trim() === '' || !Number.isFinite(margin) || margin < 0) throw new InvalidArgumentError(`expected a number ≥ 0 in the metric's units (0.02 = 2 points of a pass rate), got "${text}"`);
  return margin;
}
