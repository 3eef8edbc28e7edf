import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Command, CommanderError, Option } from 'commander';
import { commandPath, oneLineCommanderError, useOneLineErrors } from './commander-errors.js';
import { positiveInt } from './options.js';

test('an invalid option value keeps only our reason, which names the option', () => {
  const raw = `error: option '-n, --limit <n>' argument 'x' is invalid. --limit must be a positive integer, got "x"\n`;
  assert.equal(oneLineCommanderError(raw, 'assay run'), `assay: --limit must be a positive integer, got "x" (see "assay run --help")\n`);
});

test('a value outside the choices reads like our own messages', () => {
  const raw = `error: option '--shots <k>' argument '3' is invalid. Allowed choices are 0, 5.\n`;
  assert.equal(oneLineCommanderError(raw, 'assay run'), `assay: --shots must be one of 0, 5, got "3" (see "assay run --help")\n`);
});

test('a two-line message becomes one line', () => {
  const raw = `error: unknown option '--limt'\n(Did you mean --limit?)\n`;
  assert.equal(oneLineCommanderError(raw, 'assay run'), `assay: unknown option '--limt' (Did you mean --limit?) (see "assay run --help")\n`);
});

test('commandPath names a nested command from the root', () => {
  const program = new Command('assay');
  const fetch = program.command('data').command('fetch');
  assert.equal(commandPath(fetch), 'assay data fetch');
  assert.equal(commandPath(program), 'assay');
});

test('useOneLineErrors applies to nested commands registered before it', async () => {
  let written = '';
  const program = new Command('assay').exitOverride().configureOutput({ writeErr: (s) => (written += s) });
  const data = program.command('data');
  data
    .command('fetch')
    .addOption(new Option('--tries <n>').argParser(positiveInt('--tries')))
    .action(() => undefined);
  useOneLineErrors(program);
  await assert.rejects(program.parseAsync(['data', 'fetch', '--tries', '0'], { from: 'user' }), CommanderError);
  assert.equal(written, `assay: --tries must be a positive integer, got "0" (see "assay data fetch --help")\n`);
});
