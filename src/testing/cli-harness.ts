/**
 * Test support for the CLI end-to-end tests: the CLI runner, and the file helpers they share with other tests.
 */

export { runAssay as assay, type CliResult } from './spawn-cli.js';

/** The lines of a text, without the empty one after a final newline. */
export const linesOf = (text: string): string[] => text.split('\n').filter((line, i, all) => !(line === '' && i === all.length - 1));

export { fileSha, listFiles } from './files.js';
