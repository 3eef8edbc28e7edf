import { Option, type Command } from 'commander';
import { renderAgreement } from '../report/agreement.js';
import { runAgreement } from '../runner/agreement.js';
import { resolveDataDir } from '../datasets/data-dir.js';
import { dataDirOption, dbOption, jsonOption, withStore } from './shared.js';
import { printOut } from './terminal.js';

/** `assay agreement <run>`: how far a harm run's judge agrees with humans, another judge, and itself. */
export function registerAgreementCommand(program: Command): void {
  program
    .command('agreement')
    .description("measure a harm run's judge against human labels, another run's judge, and its own repeats: exact and ±1 agreement, weighted kappa with a 95% interval, confusion matrix")
    .argument('<run>', 'run id (or a unique prefix) of a harm measurement run')
    .addOption(new Option('--labels <file.csv>', 'human labels: a CSV with a header sampleId,severity (one row per conversation; unknown ids and off-scale values are refused with the line)'))
    .addOption(new Option('--with <run>', 'another run on the same resource (a second judge): its severities are compared with this run\'s, conversation by conversation'))
    .addOption(dataDirOption('data folder, if not the one the run was made with'))
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
Only conversations both raters rated are compared: no verdicts and errors are left out (n says
how many). Kappa is quadratic-weighted over the guideline's scale, with a seeded bootstrap 95%
interval; it has no value when one rater uses a single level (the reason is printed). When the
run's judge repeated (--judge-repeats ≥ 2) its first two repeats are compared too.

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
