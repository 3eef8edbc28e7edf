import { Option, type Command } from 'commander';
import { renderAgreement } from '../report/agreement.js';
import { runAgreement } from '../analysis/agreement.js';
import { resolveDataDir } from '../datasets/data-dir.js';
import { dataDirOption, dbOption, jsonOption, withStore } from './shared.js';
import { printOut } from './terminal.js';

/** `assay agreement <run>`: how far a harm or groundedness run's judge agrees with humans, another judge, and itself. */
export function registerAgreementCommand(program: Command): void {
  program
    .command('agreement')
    .description("measure a harm or groundedness run's judge against human labels, another run's judge, and its own repeats: exact and ±1 agreement, weighted kappa with a 95% interval, confusion matrix")
    .argument('<run>', 'run id (or a unique prefix) of a harm measurement or quality/groundedness run')
    .addOption(new Option('--labels <file.csv>', 'human labels: a CSV with a header sampleId,severity (one row per conversation or item; the severity is the level, for groundedness the score 1–5; unknown ids and off-scale values are refused with the line)'))
    .addOption(new Option('--with <run>', 'another run on the same resource (a second judge): its severities are compared with this run\'s, conversation by conversation'))
    .addOption(dataDirOption('data folder, if not the one the run was made with'))
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
Only items both raters rated are compared: no verdicts and errors are left out (n says how many;
so is a groundedness score of x.5 stored by a run made before scores were whole levels). Kappa is
quadratic-weighted over the scale (the guideline's; groundedness 1–5), with a BCa bootstrap 95%
interval (seeded by the pairs: the run's summary shows the same interval for the same pairs); it
has no value, shown as "—" with the reason, when either rater gives every item one level. When
the run's judge repeated (--judge-repeats ≥ 2) its first two repeats are compared too.
With --labels, the judge's defect rate is printed beside the rate corrected for its measured
error (prediction-powered inference over the labelled items, taken as a random subset of the
judged ones), with a 95% interval carrying the sampling and the labelling, and how many labels
would halve it (docs/harm.md). A run with human reviews (assay review: pass / fail, no levels)
gets the same correction with the reviews as the labels ("judge vs human reviews"), as
assay show gives it; the reviewed items must be a random subset too.

Example:
  assay agreement 20261125-081500-ab12 --labels labels.csv`,
    )
    .action(async (runId: string, flags: { labels?: string; with?: string; dataDir?: string; json?: boolean; db: string }) => {
      await withStore(flags.db, async (store) => {
        const dataDir = flags.dataDir ? resolveDataDir({ flag: flags.dataDir }).dir : undefined;
        const report = await runAgreement(store, runId, { ...(flags.labels ? { labels: flags.labels } : {}), ...(flags.with ? { withRun: flags.with } : {}), ...(dataDir ? { dataDir } : {}) });
        printOut(flags.json ? `${JSON.stringify(report)}\n` : renderAgreement(report));
      });
    });
}
