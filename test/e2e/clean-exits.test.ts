import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliEntry, collect } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { assay, linesOf, type CliResult } from '../../src/testing/cli-harness.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

// How the CLI ends when the world around it says no: a reader that closes the pipe, a --db the
// file system refuses, a count written as something other than plain digits.

const work = mkdtempSync(path.join(tmpdir(), 'assay-clean-exits-e2e-'));
const env: NodeJS.ProcessEnv = {
  ASSAY_DATA_DIR: testDataDir(),
  XDG_CACHE_HOME: path.join(work, 'cache'),
  ASSAY_METATOOL_BASE_URL: 'http://127.0.0.1:9/unreachable/',
  ASSAY_FUNCTIONCHAT_BASE_URL: 'http://127.0.0.1:9/unreachable/',
};
const run = (args: readonly string[]): Promise<CliResult> => assay(args, env);
after(() => {
  chmodSync(path.join(work, 'read-only'), 0o755);
  rmSync(work, { recursive: true, force: true });
});
mkdirSync(path.join(work, 'read-only'));

/** `assay <args> | head -1` in a real shell: the exit code is assay's, stderr is assay's. */
function pipedIntoHead(args: readonly string[]): Promise<CliResult> {
  const script = '"$0" "$@" | head -1 > /dev/null; exit "${PIPESTATUS[0]}"';
  return collect(spawn('bash', ['-c', script, process.execPath, cliEntry, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Exit 2, exactly one `assay: …` line on stderr, no stack trace, nothing on stdout. */
function assertOneLineError(result: CliResult, expected: RegExp): void {
  assert.equal(result.code, 2, `exit code of a user error (stderr: ${result.stderr})`);
  const lines = linesOf(result.stderr);
  assert.equal(lines.length, 1, `exactly one line on stderr, got:\n${result.stderr}`);
  assert.match(lines[0] as string, expected);
  assert.doesNotMatch(result.stderr, /\n\s+at |unexpected error/);
  assert.equal(result.stdout, '');
}

/**
 * Starts `assay <args>` (an export to a file in `folder`) and stops it (SIGSTOP) while its part
 * file is there, that is between its first part and its rename over the file: a signal sent then
 * is handled mid-export, whatever the machine's speed. An export that ended before it was caught
 * is started again (a few hundred rows take milliseconds on a fast machine).
 */
async function exportHeldMidway(args: readonly string[], folder: string): Promise<{ child: ChildProcess; result: Promise<CliResult> }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const child = spawn(process.execPath, [cliEntry, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const result = collect(child);
    let ended = false;
    void result.then(() => (ended = true));
    while (!ended && !readdirSync(folder).some((f) => f.endsWith('.part'))) await new Promise((resolve) => setImmediate(resolve));
    if (!ended) {
      child.kill('SIGSTOP');
      // Still writing when stopped: its part file is still there (a finished export renamed it).
      if (readdirSync(folder).some((f) => f.endsWith('.part'))) return { child, result };
      child.kill('SIGCONT');
    }
    await result;
  }
  throw new Error(`assay ${args.join(' ')} was never caught while writing its part file`);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Linux pipes hold at most 1 MiB (fs.pipe-max-size; 64 KiB by default): output larger than that
// cannot all be written before `head` exits, so the writer is sure to meet the closed pipe.
const PIPE_MAX = 1024 * 1024;

describe('a reader that closes the pipe', { skip }, () => {
  const db = path.join(work, 'pipe', 'assay.db');
  let runId = '';
  before(async () => {
    const made = await run(['run', 'metatool/similar', '--per-tool', '1', '-m', 'baseline:lexical', '-m', 'baseline:random', '--json', '--db', db]);
    assert.equal(made.code, 0, made.stderr);
    runId = (JSON.parse(made.stdout) as { run: string }).run;
  });

  test('assay export … | head -1: exit 0, nothing on stderr', async () => {
    const full = await run(['export', runId, '--db', db]);
    assert.equal(full.code, 0, full.stderr);
    assert.ok(Buffer.byteLength(full.stdout) > PIPE_MAX, `the export (${Buffer.byteLength(full.stdout)} bytes) is larger than any pipe`);
    const piped = await pipedIntoHead(['export', runId, '--db', db]);
    assert.equal(piped.stderr, '', 'no EPIPE stack trace');
    assert.equal(piped.code, 0);
  });

  // Here for this block's stored run: an export of it takes a few pages, long enough to be caught midway.
  test('a SIGTERM or SIGINT while export --out writes: FILE as it was, no part file, ended by the signal', async () => {
    const folder = path.join(work, 'killed-export');
    mkdirSync(folder, { recursive: true });
    const out = path.join(folder, 'rows.csv');
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      writeFileSync(out, 'an earlier export\n');
      const caught = await exportHeldMidway(['export', runId, '--format', 'csv', '--out', out, '--db', db], folder);
      caught.child.kill(signal);
      caught.child.kill('SIGCONT');
      const result = await caught.result;
      assert.equal(result.signal, signal, `ended by ${signal} (exit ${result.code}, stderr ${result.stderr})`);
      assert.equal(readFileSync(out, 'utf8'), 'an earlier export\n');
      assert.deepEqual(readdirSync(folder), ['rows.csv'], 'no part file left');
    }
  });

  test('assay samples --json … | head -1: exit 0, nothing on stderr', async () => {
    const args = ['samples', 'functionchat/singlecall', '--json'];
    const full = await run(args);
    assert.ok(Buffer.byteLength(full.stdout) > PIPE_MAX, `the listing (${Buffer.byteLength(full.stdout)} bytes) is larger than any pipe`);
    const piped = await pipedIntoHead(args);
    assert.equal(piped.stderr, '');
    assert.equal(piped.code, 0);
  });
});

describe('a --db the file system refuses: exit 2 with the path and the reason', () => {
  const file = path.join(work, 'plain-file');
  writeFileSync(file, 'not a folder');

  test('under a regular file (ENOTDIR), for a command that reads and one that runs', { skip }, async () => {
    const db = path.join(file, 'sub', 'assay.db');
    const reason = new RegExp(`^assay: cannot create folder ${escape(path.join(file, 'sub'))} for database ${escape(db)}: a path component is a file$`);
    // A command that only reads makes no store: it says there is none.
    assertOneLineError(await run(['runs', '--db', db]), new RegExp(`^assay: no SQLite store at ${escape(db)} \\(--db\\)`));
    assertOneLineError(await run(['run', 'metatool/similar', '--per-tool', '1', '--limit', '1', '-m', 'baseline:lexical', '--db', db]), reason);
  });

  test('export --out under a regular file: exit 2 with the reason', { skip }, async () => {
    const db = path.join(work, 'out', 'assay.db');
    const made = await run(['run', 'metatool/similar', '--per-tool', '1', '--limit', '1', '-m', 'baseline:lexical', '--json', '--db', db]);
    assert.equal(made.code, 0, made.stderr);
    const out = path.join(file, 'rows.csv');
    const result = await run(['export', (JSON.parse(made.stdout) as { run: string }).run, '--format', 'csv', '--out', out, '--db', db]);
    assertOneLineError(result, new RegExp(`^assay: cannot write --out ${escape(out)}: a path component is a file$`));
  });

  // Root may write in any folder, so a read-only folder cannot refuse it.
  const root = process.getuid?.() === 0;
  test('in a read-only folder (EACCES)', { skip: root ? 'running as root, whom a read-only folder does not stop' : false }, async () => {
    const folder = path.join(work, 'read-only');
    chmodSync(folder, 0o555);
    const db = path.join(folder, 'assay.db');
    const runCommand = ['run', 'metatool/similar', '--per-tool', '1', '--limit', '1', '-m', 'baseline:lexical'];
    assertOneLineError(await run([...runCommand, '--db', db]), new RegExp(`^assay: cannot open database ${escape(db)}: cannot write in folder ${escape(folder)}: permission denied$`));
    assertOneLineError(await run([...runCommand, '--db', path.join(folder, 'sub', 'assay.db')]), /^assay: cannot create folder .*sub for database .*: permission denied$/);
  });
});

describe('counts that are not plain decimal integers are refused, naming the option', { concurrency: 4 }, () => {
  const db = path.join(work, 'numbers', 'assay.db');
  const task = ['metatool/similar', '-m', 'baseline:lexical'];
  const judged = ['functionchat/dialog', '-m', 'openai:m', '--judge', 'openai:j'];
  const cases: Array<[string, string[]]> = [
    ['--seed', ['run', ...task, '--seed', '1e3']],
    ['--concurrency', ['run', ...task, '--concurrency', '0x10']],
    ['--per-tool', ['run', ...task, '--per-tool', '1.0']],
    ['--limit', ['run', ...task, '--limit', '+5']],
    ['--max-tokens', ['run', ...task, '--max-tokens', ' 5']],
    ['--timeout', ['run', ...task, '--timeout', '1e3']],
    ['--max-retries', ['run', ...task, '--max-retries', '0b1']],
    ['--rpm', ['run', ...task, '--rpm', '60.0']],
    ['--tpm', ['run', ...task, '--tpm', '1e6']],
    ['--temperature', ['run', ...task, '--temperature', '0x1']],
    ['--max-cost', ['run', ...task, '--max-cost', '1e1']],
    ['--judge-repeats', ['run', ...judged, '--judge-repeats', '3.0']],
    ['--judge-parse-retries', ['run', ...judged, '--judge-parse-retries', '+1']],
    ['--judge-max-tokens', ['run', ...judged, '--judge-max-tokens', '5e2']],
    ['--concurrency', ['resume', 'some-run', '--concurrency', '0x10']],
    ['--limit', ['samples', 'metatool/similar', '--limit', '1e1']],
  ];
  for (const [option, args] of cases) {
    const value = args[args.indexOf(option) + 1] as string;
    test(`${args[0]} ${option} "${value}"`, async () => {
      assertOneLineError(await run([...args, '--db', db]), new RegExp(`^assay: ${option} must be .*got "${escape(value)}"`));
    });
  }
  test('and nothing was recorded', async () => {
    // Refused before the store was opened: it was not even made (a command that reads refuses it then).
    const runs = await run(['runs', '--json', '--db', db]);
    if (existsSync(db)) assert.deepEqual(JSON.parse(runs.stdout), []);
    else assertOneLineError(runs, /^assay: no SQLite store at /);
  });
});
