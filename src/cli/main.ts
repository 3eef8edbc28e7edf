#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { InputError, describeError } from '../core/index.js';
import { toolkitVersion } from '../version.js';
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { useOneLineErrors } from './commander-errors.js';
import { EXIT } from './shared.js';
import { printErr } from './terminal.js';

/** A message as one line: the CLI promises exactly one line on stderr for a user error. */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/**
 * Registers the commands a command line needs: `run` and `resume` alone when it names one of them
 * (their module and what it imports are all a run loads: the other commands' modules — reports,
 * comparisons, the viewer, the demo — were ~100 of the ~270 modules of ours a run loaded), `show`
 * alone when it names it, `worker` likewise, none for `--version`, every command otherwise (a
 * help, a list, an unknown command's "did you mean").
 * A command's help and errors name no other command, so they read the same either way.
 */
async function registerCommandsFor(program: Command, first: string | undefined, setExitCode: (code: number) => void): Promise<void> {
  // `--version` prints the version and stops before any command is looked at.
  if (first === '--version' || first === '-V') return;
  if (first === 'run' || first === 'resume') {
    const { registerRunCommands } = await import('./run-command.js');
    registerRunCommands(program, setExitCode);
    return;
  }
  // `show` alone likewise: it loaded every command's modules (455 files, zod's and undici's among
  // them), ~0.3 s of its start.
  if (first === 'show') {
    const { registerShowCommand } = await import('./show-command.js');
    registerShowCommand(program);
    return;
  }
  // `worker` alone too: a worker lives for hours, and every command's modules (reports, comparisons,
  // the viewer, the demo) were ~100 modules it never ran, held in its heap all that time.
  if (first === 'worker') {
    const { registerWorkerCommand } = await import('./worker-command.js');
    registerWorkerCommand(program, setExitCode);
    return;
  }
  const { registerCommands } = await import('./commands.js');
  registerCommands(program, setExitCode);
}

/** Entry point of the `assay` command: parse, dispatch, turn failures into one line and an exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  endQuietlyOnClosedPipe(process.stdout);
  endQuietlyOnClosedPipe(process.stderr);
  const program = new Command('assay')
    .description('Measure LLMs and LLM applications: tool use, judged quality, harm.')
    .version(toolkitVersion)
    .exitOverride()
    .addHelpText(
      'after',
      `
Quick start:
  assay demo            (a judged run, a conversation and a report, scripted: no key, no data)
  assay list
  assay run metatool/similar --model baseline:lexical --per-tool 1
  assay show <run>      assay export <run> --format csv      assay rescore <run>

Runs are stored in --db: a SQLite file (default .assay/assay.db, or $ASSAY_DB) or
postgres://user@host:5432/database; data is read from
--data-dir, $ASSAY_DATA_DIR or the user cache ("assay data path" says which).
Each command has its own --help.`,
    );
  let exitCode: number = EXIT.ok;
  await registerCommandsFor(program, argv[2], (code) => (exitCode = code));
  useOneLineErrors(program);
  try {
    await program.parseAsync(argv as string[], { from: 'node' });
    return exitCode;
  } catch (error) {
    // Commander has already printed its message (one line, see commander-errors.ts) or the help.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    if (error instanceof InputError) {
      printErr(`assay: ${oneLine(error.message)}\n`);
      return EXIT.badInput;
    }
    // The run's stop (Ctrl-C, SIGTERM) ending work that is not a model call (rendering a resource's templates).
    if ((error as { name?: unknown } | null)?.name === 'AbortError') {
      printErr('assay: stopped\n');
      return EXIT.interrupted;
    }
    printErr(`assay: unexpected error: ${oneLine(describeError(error))} (set ASSAY_DEBUG=1 for the stack)\n`);
    if (process.env['ASSAY_DEBUG']) printErr(`${(error as Error).stack ?? ''}\n`);
    return EXIT.unexpected;
  }
}
