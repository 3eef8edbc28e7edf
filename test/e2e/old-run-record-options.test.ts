import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { assay } from '../../src/testing/cli-harness.js';
import { OWN_TOOL_ENTRIES } from '../../src/testing/own-tool-set.js';

// Runs have recorded MetaTool's and FunctionChat's options at the top level of their options
// (`perTool`, `prompts`, `tools`, `embedder`, `benchVersion`) since before tasks declared their
// options; the tasks declare them now and they are still recorded there. This writes a run's
// options column as the older assay did, byte for byte, and checks that the same command finds
// and resumes it, that it shows and re-scores, and that a new run records the same bytes.

const work = mkdtempSync(path.join(tmpdir(), 'assay-old-options-'));
after(() => rmSync(work, { recursive: true, force: true }));
const dataDir = path.join(work, 'no-data');
mkdirSync(dataDir);
const tools = path.join(work, 'tools.json');
/**
 * The shared own-tool set with two queries for every tool, so that each gives two samples at
 * `--per-tool 2`: its dictionary (no queries there) is given two, its function-format calculator
 * (no queries) is left out.
 */
const TOOL_ENTRIES = OWN_TOOL_ENTRIES.filter((t) => 'name' in t).map((t) =>
  'name' in t && t.name === 'dictionary' ? { ...t, queries: ['What does ephemeral mean?', 'Synonym for happy?'] } : t,
);
writeFileSync(tools, JSON.stringify(TOOL_ENTRIES));
const env = { ASSAY_DATA_DIR: dataDir, XDG_CACHE_HOME: path.join(work, 'cache') };
const db = path.join(work, 'runs.db');
const RUN = ['run', 'metatool/similar', '-m', 'baseline:lexical', '--tools', tools, '--per-tool', '2', '--seed', '3', '--bench-version', 'v2.0.0', '--db', db, '--json'];
/** What the older assay (before tasks declared MetaTool's and FunctionChat's options) recorded for `RUN`, in its key order. */
const OLD_OPTIONS = `{"perTool":2,"prompts":"assay","parser":"strict","benchVersion":"v2.0.0","tools":${JSON.stringify(tools)},"embedder":"lexical"}`;

const optionsColumn = (id: string): string => {
  const sql = new Database(db, { readonly: true });
  try {
    return (sql.prepare('SELECT options FROM runs WHERE id = ?').get(id) as { options: string }).options;
  } finally {
    sql.close();
  }
};

test('a run whose options the older assay recorded is found by the same command, resumed, shown and re-scored', async () => {
  const first = await assay(RUN, env);
  assert.equal(first.code, 0, first.stderr);
  const id = (JSON.parse(first.stdout) as { run: string }).run;
  assert.equal(optionsColumn(id), OLD_OPTIONS, 'a new run records the options as the older assay did');
  const shownBefore = await assay(['show', id, '--db', db, '--json'], env);
  assert.equal(shownBefore.code, 0, shownBefore.stderr);

  // The record as the older assay left an interrupted run: its options column written in its
  // bytes (not by this assay), one sample's result missing.
  const sql = new Database(db);
  try {
    sql.prepare("UPDATE runs SET options = ?, status = 'interrupted' WHERE id = ?").run(OLD_OPTIONS, id);
    assert.equal(sql.prepare('DELETE FROM results WHERE run_id = ? AND sample_id = (SELECT min(sample_id) FROM results WHERE run_id = ?)').run(id, id).changes, 1);
  } finally {
    sql.close();
  }
  const resumed = await assay([...RUN, '--resume'], env);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.doesNotMatch(resumed.stderr, /no earlier run/);
  const summary = JSON.parse(resumed.stdout) as { run: string; status: string; models: Record<string, { counts: { samples: number; errors: number } }> };
  assert.equal(summary.run, id, 'the same command found the older run by its recorded options');
  assert.equal(summary.status, 'finished');
  assert.equal(summary.models['baseline:lexical']?.counts.samples, TOOL_ENTRIES.length * 2);
  assert.equal(optionsColumn(id), OLD_OPTIONS, 'the resume left the options as they were recorded');

  const shown = await assay(['show', id, '--db', db, '--json'], env);
  assert.equal(shown.code, 0, shown.stderr);
  // The same as before it was interrupted, but for the one call the resume made again.
  const withoutCalls = (stdout: string): string => JSON.stringify({ ...(JSON.parse(stdout) as object), cost_by_role: undefined });
  assert.equal(withoutCalls(shown.stdout), withoutCalls(shownBefore.stdout), 'the resumed older run shows as the run did before');
  const listed = await assay(['runs', '--db', db, '--json'], env);
  assert.equal(listed.code, 0, listed.stderr);
  const runs = JSON.parse(listed.stdout) as { id: string; options: unknown }[];
  assert.deepEqual(runs.map((r) => r.id), [id], 'no second run was started');
  assert.equal(JSON.stringify(runs[0]?.options), OLD_OPTIONS, 'runs --json prints the options as recorded');

  const rescored = await assay(['rescore', id, '--parser', 'paper', '--json', '--db', db], env);
  assert.equal(rescored.code, 0, rescored.stderr);
  const outcome = JSON.parse(rescored.stdout) as { rescore: { storedOptions: unknown; scoredWith: unknown } };
  assert.equal(JSON.stringify(outcome.rescore.storedOptions), OLD_OPTIONS);
  assert.equal(JSON.stringify(outcome.rescore.scoredWith), OLD_OPTIONS.replace('"parser":"strict"', '"parser":"paper"'));
});
