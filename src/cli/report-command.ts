import { Command, Option } from 'commander';
import { renderReportHtml } from '../report/html/html-report.js';
import { DEFAULT_DETAILS, buildReportBundle, parseDetailsPolicy, type DetailsPolicy } from '../report/run-report.js';
import { dbOption, jsonOption, withStore, writeOutFile } from './shared.js';
import { printData, printErr } from './terminal.js';

/** `assay report <run>…`: the single-file HTML report (or its data as JSON). */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('write one self-contained HTML report of one or more stored runs: overview, model tables with 95% intervals, charts, judge health, a sample browser (read from the store alone; no model is called)')
    .argument('<runs...>', 'run ids (or unique prefixes); several runs share one report')
    .addOption(new Option('-o, --out <file>', 'the HTML file to write (required unless --json)'))
    .addOption(
      new Option('--details <which>', `which samples' full details (prompt, output, every call) the file carries: all, failing (every row that is not a pass), or at most <n> rows, the ones that need a look first (default ${DEFAULT_DETAILS.mode === 'limit' ? DEFAULT_DETAILS.limit : DEFAULT_DETAILS.mode})`).argParser(
        parseDetailsPolicy,
      ),
    )
    .addOption(jsonOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
The file opens in any browser with no network and no data dir: scripts, styles and data are
inlined, a Content-Security-Policy forbids every request, and every text from a run (prompts,
outputs, judge replies) is shown as text, never as markup. The sample index holds every sample
of every model (filters: model, verdict, error kind, no verdict, changed by review, run);
full details are carried for the rows --details picks: errors, no verdicts, reviewed changes
and fails first. A 100,000-sample run with the default makes a file of a few MB (see
docs/benchmarks.md).

With --json, the report's data (schema 1: {schema, generatedAt, toolkitVersion, runs: [RunReport]})
is printed instead of the HTML.

Examples:
  assay report 20250101-120000-ab12 -o report.html
  assay report 20250101-120000-ab12 20250102-093000-cd34 -o both.html --details failing`,
    )
    .action(async (runIds: string[], flags: { out?: string; details?: DetailsPolicy; json?: boolean; db: string }) => {
      if (!flags.json && !flags.out) program.error('error: give -o <file> for the HTML report (or --json for its data)', { exitCode: 2 });
      await withStore(flags.db, async (store) => {
        const bundle = await buildReportBundle(store, runIds, flags.details ? { details: flags.details } : {});
        if (flags.json) {
          const text = `${JSON.stringify(bundle)}\n`;
          if (flags.out) writeOutFile(flags.out, text);
          else printData(text);
          return;
        }
        const html = renderReportHtml(bundle);
        writeOutFile(flags.out as string, html);
        const rows = bundle.runs.reduce((n, r) => n + r.detailsPolicy.rows, 0);
        const included = bundle.runs.reduce((n, r) => n + r.detailsPolicy.included, 0);
        printErr(`wrote ${flags.out}: ${bundle.runs.length} run(s), ${rows} sample rows, details for ${included}; ${(Buffer.byteLength(html) / 1e6).toFixed(2)} MB\n`);
      });
    });
}
