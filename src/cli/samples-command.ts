import { Command, Option } from 'commander';
import { findTask } from '../benchmarks/registry.js';
import { resolveDataDir } from '../datasets/data-dir.js';
import { renderSampleList, sampleJsonLines } from '../report/samples.js';
import { buildTaskSamples } from '../runner/task-samples.js';
import { EXIT, interruptSignal, unusedDbOption } from './shared.js';
import { dataReady } from './task-data.js';
import { addTaskOptions, readsOwnData, taskOptionsFrom, type TaskFlags } from './task-options.js';
import { printOut } from './terminal.js';

type SamplesFlags = TaskFlags & { json?: boolean };

async function samplesCommand(taskName: string, flags: SamplesFlags): Promise<number> {
  findTask(taskName); // a typo fails before any download
  const resolved = resolveDataDir({ ...(flags.dataDir ? { flag: flags.dataDir } : {}) });
  const options = taskOptionsFrom(taskName, flags);
  // No model is called here: the first Ctrl-C stops a download at once.
  const { signal, dispose } = interruptSignal(true);
  try {
    // A user's own tool set replaces the benchmark data: nothing to download.
    const ready = readsOwnData(options) || (await dataReady(taskName, { dataDir: resolved, download: flags.download, signal }));
    if (!ready) return EXIT.interrupted;
    const samples = await buildTaskSamples({ task: taskName, seed: flags.seed, options, dataDir: resolved.dir });
    printOut(flags.json ? sampleJsonLines(samples) : `${renderSampleList(samples)}\n`);
    return EXIT.ok;
  } finally {
    dispose();
  }
}

const SAMPLES_HELP = `
The samples are those "assay run" would call a model for with the same task, seed and
options, in the same order. --json writes one JSON object a line: {"id", "input" (the exact
messages), "tools" (when offered), "target"}.

A replay file for any task (FunctionChat included): answer each input elsewhere, then write
one {"id": "<id>", "output": "<text>"} (or {"id", "message": {…assistant message…}}) a line
and run it with the same options:
  assay samples functionchat/singlecall --limit 20 --json > samples.jsonl
  assay run functionchat/singlecall --limit 20 -m replay:outputs.jsonl --exact-only

Examples:
  assay samples metatool/similar --per-tool 1 --seed 3
  assay samples metatool/awareness --limit 50 --json`;

/** Registers `assay samples`. */
export function registerSamplesCommand(program: Command, setExitCode: (code: number) => void): void {
  const samples = program
    .command('samples')
    .description("list a task's sample ids and what each asks, without calling a model (for replay files)")
    .argument('<task>', 'task name, e.g. metatool/similar (see "assay list")');
  addTaskOptions(samples)
    .addOption(new Option('--json', 'print JSON Lines: one object a sample with its id, full input messages, tools and target'))
    .addOption(unusedDbOption())
    .addHelpText('after', SAMPLES_HELP)
    .action(async (task: string, flags: SamplesFlags) => setExitCode(await samplesCommand(task, flags)));
}
