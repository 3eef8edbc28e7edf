import { Command, InvalidArgumentError, Option } from 'commander';
import { describeError } from '../core/index.js';
import { isLoopback } from '../report/view/access.js';
import { startViewServer } from '../report/view/view-server.js';
import { nonNegativeInt } from './options.js';
import { dbOption, withStore } from './shared.js';
import { printErr, printOut } from './terminal.js';

function portNumber(value: string): number {
  const port = nonNegativeInt('--port')(value);
  if (port > 65535) throw new InvalidArgumentError(`--port must be at most 65535, got "${value}"`);
  return port;
}

/** Resolves at the first SIGINT or SIGTERM (Ctrl-C): the viewer then closes and the command ends. */
function untilInterrupted(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

/** `assay view`: a local web server over the store, showing the report's pages live. */
export function registerViewCommand(program: Command): void {
  program
    .command('view')
    .description('serve a local viewer of the stored runs: a run list and each run’s report pages (overview, model tables, charts, judge health, sample browser), updating while a run is in progress')
    .addOption(new Option('--port <n>', 'the port to listen on (default: a free one, printed)').argParser(portNumber))
    .addOption(new Option('--host <address>', 'the address to listen on; anything but loopback requires the access token printed in the URL').default('127.0.0.1'))
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
Prints the viewer's URL and serves until Ctrl-C. The viewer only reads the store (no model is
called, nothing is written), so it can stay open beside a run: the run list and an open run's
overview and counts update every 2 s while the run is in progress, and stop once it ends.

Pages: the run list (run, task, models, status, created, samples done, errors, cost); a run's
report, the same pages as "assay report" writes to a file; several checked runs side by side.
A run's sample index is read when its Samples tab opens and each sample's details (prompt,
output, every call, judge replies) when its row is clicked, so a 100,000-sample run opens fast.

Safety: on 127.0.0.1 (the default) only this machine can connect. With --host 0.0.0.0 (or any
non-loopback address) every request needs the random access token in the printed URL (the page
keeps it in a cookie); requests without it get 403. Requests whose Host header names another
site are refused (DNS rebinding). Pages run under the report's Content-Security-Policy and show
every text from a run (outputs, prompts, judge replies) as text, never as markup.

Examples:
  assay view
  assay view --port 8080 --db runs.db
  assay view --host 0.0.0.0 --port 8080      # reachable from other machines, with a token`,
    )
    .action(async (flags: { port?: number; host: string; db: string }) => {
      await withStore(flags.db, async (store) => {
        const server = await startViewServer({
          store,
          host: flags.host,
          ...(flags.port !== undefined ? { port: flags.port } : {}),
          onError: (error) => printErr(`assay view: a request failed: ${describeError(error).split('\n')[0]}\n`),
        });
        const wildcard = flags.host === '0.0.0.0' || flags.host === '::';
        printOut(`assay view: ${server.url}\n`);
        if (!isLoopback(flags.host)) {
          printOut(`listening on ${flags.host}:${server.port}${wildcard ? ' (every interface: use this machine’s address in place of 127.0.0.1)' : ''}; the token is required on every request\n`);
        }
        printOut('read-only; Ctrl-C stops the viewer\n');
        await untilInterrupted();
        await server.close();
        printErr('assay view: stopped\n');
      });
    });
}
