import type { Command } from 'commander';
import { renderComparison } from '../report/compare.js';
import { compareRuns } from '../runner/compare/compare-runs.js';
import { dbOption, jsonOption, withStore } from './shared.js';

/** `assay compare <runA> <runB>`: two runs of one task, sample by sample, with paired statistics. */
export function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .description('compare two runs of the same task sample by sample: per metric B − A with a 95% interval and a paired test, and which samples newly fail or newly pass; read from the store (no model is called)')
    .argument('<runA>', 'the run to compare against (before), id or unique prefix')
    .argument('<runB>', 'the run compared (after), id or unique prefix')
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
Which models: a model in both runs is compared with itself (before/after a prompt change or a
mitigation); if each run has one model and they differ, those two are compared. Other models
are named and left out. Runs of different tasks, models that do not pair, and runs without a
sample in common are refused (exit 2).

Which samples: those with a result in both runs, paired by sample id (the counts only in A and
only in B are shown). A pair that ended in error on either side, or has no verdict on a side,
is counted apart and left out of the figures: never read as a fail.

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

What a pass and the number are is the task's: harm tasks read pass as "no defect" and the
number as the severity; judged summaries pass when aligned; others read true/false as pass/fail
and a number as the number.

Example:
  assay compare 20250101-120000-ab12 20250102-090000-cd34 --json`,
    )
    .action(async (runA: string, runB: string, flags: { json?: boolean; db: string }) => {
      await withStore(flags.db, async (store) => {
        const comparison = await compareRuns(store, runA, runB);
        process.stdout.write(flags.json ? `${JSON.stringify(comparison)}\n` : renderComparison(comparison));
      });
    });
}
