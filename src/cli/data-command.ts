import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { requireFolder } from '../core/index.js';
import { resolveDataDir, type ResolvedDataDir } from '../datasets/data-dir.js';
import { DATASET_NAMES, getManifest } from '../datasets/fetch/manifests.js';
import { EXIT, dataDirOption, jsonOption, unusedDbOption } from './shared.js';
import { downloadDataset } from './task-data.js';
import { printErr, printOut } from './terminal.js';

const DEFAULT_DATASET = DATASET_NAMES[0] ?? 'metatool';

const SOURCE_TEXT: Readonly<Record<ResolvedDataDir['source'], string>> = {
  flag: '--data-dir',
  env: 'ASSAY_DATA_DIR',
  cache: 'user cache (no --data-dir, ASSAY_DATA_DIR unset)',
};

const resolveFrom = (dataDir: string | undefined): ResolvedDataDir => resolveDataDir({ ...(dataDir ? { flag: dataDir } : {}) });

/** `assay data fetch`: downloads what is missing, every file checked against its sha256. */
async function fetchCommand(dataset: string, flags: { dataDir?: string; json?: boolean }): Promise<number> {
  getManifest(dataset); // an unknown dataset fails before anything is created
  const { dir } = resolveFrom(flags.dataDir);
  requireFolder(dir, 'data dir');
  const result = await downloadDataset(dataset, { dataDir: dir });
  if (flags.json) {
    printOut(`${JSON.stringify({ dataset, dataDir: dir, ...result })}\n`);
  } else {
    const total = result.downloaded.length + result.derived.length + result.verified.length;
    printOut(
      `${dataset} in ${dir}: ${total} pinned file(s) match their sha256 (downloaded ${result.downloaded.length}, derived ${result.derived.length}, already present ${result.verified.length})\n`,
    );
  }
  return EXIT.ok;
}

/** `assay data verify`: exit 0 when every pinned file matches, else 2 with the report. */
async function verifyCommand(dataset: string, flags: { dataDir?: string; json?: boolean }): Promise<number> {
  const { dir } = resolveFrom(flags.dataDir);
  const { formatVerifyReport, verifyDataset } = await import('../datasets/fetch/download.js');
  const report = await verifyDataset(dataset, dir);
  printOut(flags.json ? `${JSON.stringify(report)}\n` : `${formatVerifyReport(report)}\n`);
  if (report.ok) return EXIT.ok;
  printErr(`assay: ${dataset} in ${dir} does not match its pinned checksums (${report.missing.length} missing, ${report.mismatched.length} mismatched); repair with: assay data fetch ${dataset}${flags.dataDir ? ` --data-dir ${flags.dataDir}` : ''}\n`);
  return EXIT.badInput;
}

/** `assay data path`: where the data is read from, and why. */
function pathCommand(flags: { dataDir?: string; json?: boolean }): number {
  const { dir, source } = resolveFrom(flags.dataDir);
  const present = Object.fromEntries(DATASET_NAMES.map((name) => [name, existsSync(path.join(dir, name))]));
  if (flags.json) {
    printOut(`${JSON.stringify({ dir, source, datasets: present })}\n`);
  } else {
    const lines = DATASET_NAMES.map((name) => `  ${name}: ${present[name] ? 'present' : `not downloaded yet (assay data fetch ${name})`}`);
    printOut(`${dir}\n  source: ${SOURCE_TEXT[source]}\n${lines.join('\n')}\n`);
  }
  return EXIT.ok;
}

/** Registers `assay data fetch|verify|path`. */
export function registerDataCommands(program: Command, setExitCode: (code: number) => void): void {
  const data = program
    .command('data')
    .description('download, verify and locate the benchmark datasets')
    .addHelpText(
      'after',
      `
Where data is read from: --data-dir, else $ASSAY_DATA_DIR, else the user cache
($XDG_CACHE_HOME or ~/.cache, then assay/datasets). "assay run" downloads a missing
dataset by itself unless given --no-download.`,
    );

  data
    .command('fetch')
    .description('download the files of a dataset that are missing or damaged, each checked against its pinned sha256')
    .argument('[dataset]', `dataset to fetch: ${DATASET_NAMES.join(' or ')}`, DEFAULT_DATASET)
    .addOption(dataDirOption('folder to put the dataset in (must exist; default: $ASSAY_DATA_DIR, else the user cache)'))
    .addOption(jsonOption())
    .addOption(unusedDbOption())
    .addHelpText(
      'after',
      `
Datasets: metatool (MetaTool, one commit), functionchat (FunctionChat-Bench: both data
versions, v2.0.0 and paper-2024-09, each from its own commit; about 3 MB).

Mirrors: set ASSAY_METATOOL_BASE_URL to a URL laid out like the upstream repository's
dataset/ folder (the LICENSE is read from one level above it), or ASSAY_FUNCTIONCHAT_BASE_URL
to one laid out like the FunctionChat-Bench repository's raw root (<commit>/data/<file>,
<commit>/LICENSE), to download from there instead of GitHub. Every file is still checked
against the sha256 pinned in assay.

Examples:
  assay data fetch metatool --data-dir ./datasets
  assay data fetch functionchat`,
    )
    .action(async (dataset: string, flags: { dataDir?: string; json?: boolean }) => setExitCode(await fetchCommand(dataset, flags)));

  data
    .command('verify')
    .description('check every pinned file of a dataset against its sha256 (exit 0 when all match, 2 otherwise); never downloads')
    .argument('[dataset]', `dataset to verify: ${DATASET_NAMES.join(' or ')}`, DEFAULT_DATASET)
    .addOption(dataDirOption())
    .addOption(jsonOption())
    .addOption(unusedDbOption())
    .action(async (dataset: string, flags: { dataDir?: string; json?: boolean }) => setExitCode(await verifyCommand(dataset, flags)));

  data
    .command('path')
    .description('print the data dir assay would use, and where that choice came from')
    .addOption(dataDirOption())
    .addOption(jsonOption())
    .addOption(unusedDbOption())
    .action((flags: { dataDir?: string; json?: boolean }) => setExitCode(pathCommand(flags)));
}
