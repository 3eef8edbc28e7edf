// Runs the CLI with this process's arguments: `node dist/src/cli/run-cli.js <command> …`.
// Tests spawn this file; `bin/assay.js` is the installed launcher and does the same.
// V8 flags first: modules evaluate in import order, so they are set before any other code runs.
import './v8-flags.js';
import { main } from './main.js';

process.exitCode = await main(process.argv);
