// Sets V8's memory flags (`core/v8-memory-flags.ts` says what each is for and what it measured)
// before anything else runs: run-cli.ts imports this first.
import { setFlagsFromString } from 'node:v8';
import { MEMORY_FLAGS } from '../core/v8-memory-flags.js';

export { MEMORY_FLAGS };

for (const flag of MEMORY_FLAGS) setFlagsFromString(flag);
