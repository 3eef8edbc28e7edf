import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { revealsSecret } from './canary.js';
import { CANARIES } from './canary-server.js';
import { runAssay, type CliResult } from './spawn-cli.js';

/** Fails naming where, and which canary, if a text shows any canary in any decodable form. */
export function assertNoCanary(where: string, text: string): void {
  for (const canary of CANARIES) assert.equal(revealsSecret(text, canary), false, `${where} shows ${canary}`);
}

/** A file read as bytes (latin1: a SQLite page or WAL frame holds the text as it is). */
export const fileText = (path: string): string => readFileSync(path).toString('latin1');

/**
 * Everything a user or a colleague reads of a stored run through the CLI: `runs`, `show` (text and
 * JSON), `export` in JSONL, CSV and TSV, and the HTML report with every sample's details (written
 * to `dir`). Each command must succeed; returned by name with its stdout and stderr.
 */
export async function readRunEverywhere(runId: string, db: string, dir: string, env: NodeJS.ProcessEnv = {}): Promise<Record<string, string>> {
  const report = join(dir, `report-${runId}.html`);
  const commands: Record<string, string[]> = {
    runs: ['runs', '--db', db],
    show: ['show', runId, '--db', db],
    'show --json': ['show', runId, '--json', '--db', db],
    'export jsonl': ['export', runId, '--format', 'jsonl', '--db', db],
    'export csv': ['export', runId, '--format', 'csv', '--db', db],
    'export tsv': ['export', runId, '--format', 'tsv', '--db', db],
    report: ['report', runId, '-o', report, '--details', 'all', '--db', db],
  };
  const texts: Record<string, string> = {};
  for (const [name, args] of Object.entries(commands)) {
    const result: CliResult = await runAssay(args, env);
    assert.equal(result.code, 0, `${name}: ${result.stderr}`);
    texts[name] = `${result.stdout}\n${result.stderr}`;
  }
  texts['report file'] = readFileSync(report, 'utf8');
  return texts;
}
