// Runs the CLI with this process's arguments: `node dist/src/cli/run-cli.js <command> …`.
// Tests spawn this file; `bin/assay.js` is the installed launcher and does the same.
import { main } from './main.js';

process.exitCode = await main(process.argv);
