import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { findTask } from '../../src/benchmarks/registry.js';
import { rescoreRun } from '../../src/analysis/rescore.js';
import { resumeRun, startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { compareFingerprints, fingerprints, runFunctionChatJudgeScenarios, snapshotDatabase } from '../../src/testing/functionchat-judge-scenario.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { packageRoot } from '../../src/version.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('functionchat', 'metatool');

/**
 * FunctionChat's judged runs store what they stored before its judge moved onto the judge role:
 * the scenarios of `src/testing/functionchat-judge-scenario.ts` (exact matches, pass and fail,
 * re-asks, 2–1 and tied repeats, JSON verdicts, transient 500s, a judge outage and
 * `--retry-errors`, a refused judge key and a resume, `--exact-only`, a re-score, a second run
 * from the cache) run here, and every stored row (runs, samples, calls, results: prompts, cache
 * keys, outputs, roles, actors, attempts, usage, cost, score JSON) and every summary the runs
 * returned is compared with the fingerprints taken on the build before the move
 * (`test/fixtures/functionchat-judge-identity.json`, written by `node dist/src/perf/judge-identity.js
 * fingerprints` from a run on that build, commit 395c47a). Only a judge call's step label may
 * differ: it had none, it now has `verdict`, `verdict/repeat-2`, `verdict#2`… MetaTool runs are
 * compared too.
 */
test('FunctionChat judged runs store the same rows, byte for byte, as before the judge moved onto the judge role', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-fc-identity-'));
  try {
    const outcome = await runFunctionChatJudgeScenarios({ startRun, resumeRun, rescoreRun, openSqliteStore, findTask }, testDataDir(), dir);
    const expected = JSON.parse(readFileSync(join(packageRoot, 'test', 'fixtures', 'functionchat-judge-identity.json'), 'utf8')) as Record<string, Record<string, string>>;
    assert.deepEqual(Object.keys(outcome.databases).sort(), Object.keys(expected).sort());
    for (const [scenario, db] of Object.entries(outcome.databases)) {
      const snapshot = snapshotDatabase(db);
      const problems = compareFingerprints(expected[scenario] ?? {}, fingerprints(snapshot, outcome.returned[scenario]));
      assert.deepEqual(problems.slice(0, 20), [], `${scenario}: ${problems.length} row(s) differ`);
      // The one column allowed to change: every judge call now says which step of the judgment it was.
      for (const [call, step] of Object.entries(snapshot.steps)) assert.match(step ?? '', /^verdict(\/repeat-[1-3])?(#[2-3])?$/, call);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
