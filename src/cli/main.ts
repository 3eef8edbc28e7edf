#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { InputError, describeError } from '../core/index.js';
import { toolkitVersion } from '../version.js';
import { registerCommands } from './commands.js';

/** Entry point of the `assay` command: parse, dispatch, turn failures into one line and an exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('assay')
    .description('Measure LLMs and LLM applications: tool use, judged quality, harm.')
    .version(toolkitVersion)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  let exitCode = 0;
  registerCommands(program, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv as string[], { from: 'node' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof InputError) {
      process.stderr.write(`assay: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`assay: unexpected error: ${describeError(error)}\n`);
    if (process.env['ASSAY_DEBUG']) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    return 1;
  }
}
