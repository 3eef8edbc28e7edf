import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { assay, linesOf, type CliResult } from '../../src/testing/cli-harness.js';
import type { RunComparison } from '../../src/analysis/compare/run-comparison.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const work = mkdtempSync(path.join(tmpdir(), 'assay-compare-e2e-'));
after(() => rmSync(work, { recursive: true, force: true }));

// The shared data, a private cache, and dataset mirrors that refuse connections (nothing is fetched).
const env: NodeJS.ProcessEnv = {
  ASSAY_DATA_DIR: testDataDir(),
  XDG_CACHE_HOME: path.join(work, 'cache'),
  ASSAY_METATOOL_BASE_URL: 'http://127.0.0.1:9/unreachable/',
  ASSAY_FUNCTIONCHAT_BASE_URL: 'http://127.0.0.1:9/unreachable/',
};
const db = path.join(work, 'assay.db');
const run = (args: readonly string[]): Promise<CliResult> => assay([...args, '--db', db], env);

/** Runs a task and returns the new run's id (from --json). */
async function newRun(args: readonly string[], expectedCode = 0): Promise<string> {
  const result = await run(['run', ...args, '--json']);
  assert.equal(result.code, expectedCode, result.stderr);
  return (JSON.parse(result.stdout) as { run: string }).run;
}

/** Exit code 2 and one line on stderr, `assay: …`, nothing on stdout. */
function assertRefused(result: CliResult, expected: RegExp): void {
  assert.equal(result.code, 2, `exit code of a refusal (stderr: ${result.stderr})`);
  const lines = linesOf(result.stderr);
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0] as string, /^assay: /);
  assert.match(lines[0] as string, expected);
  assert.equal(result.stdout, '');
}

const SIMILAR = ['metatool/similar', '--per-tool', '1'];

describe('assay compare: one model before and after (a replay file rewritten between two runs)', { skip }, () => {
  // 11 MetaTool samples. Outputs by hand: the gold tool passes, "none" fails, "Maybe something"
  // names no tool (no verdict); a sample missing from the file ends in error (missing-output).
  //   s0–s2 pass/pass (unchanged), s3 pass/fail (newly failing), s4–s6 fail/pass (newly passing),
  //   s7 fail/fail (still failing), s8 pass/no verdict, s9 missing in A (error)/pass; run A has
  //   10 samples (--limit 10), run B 11: s10 is only in B.
  const A = ['pass', 'pass', 'pass', 'pass', 'fail', 'fail', 'fail', 'fail', 'pass', 'missing'] as const;
  const B = ['pass', 'pass', 'pass', 'fail', 'pass', 'pass', 'pass', 'fail', 'none', 'pass', 'pass'] as const;
  const replay = path.join(work, 'outputs.jsonl');
  const model = `replay:${replay}`;
  let ids: string[] = [];
  let runA = '';
  let runB = '';

  const writeReplay = (samples: Array<{ id: string; target: string }>, plan: readonly string[]): void => {
    const text = { pass: (gold: string) => gold, fail: () => 'none', none: () => 'Maybe something' } as const;
    const lines = samples.flatMap((s, i) => {
      const what = plan[i];
      return what === undefined || what === 'missing' ? [] : [JSON.stringify({ id: s.id, output: text[what as keyof typeof text](s.target) })];
    });
    writeFileSync(replay, `${lines.join('\n')}\n`);
  };

  before(async () => {
    const listed = await assay(['samples', ...SIMILAR, '--limit', '11', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const samples = linesOf(listed.stdout).map((l) => JSON.parse(l) as { id: string; target: string });
    ids = samples.map((s) => s.id);
    writeReplay(samples, A);
    runA = await newRun([...SIMILAR, '--limit', '10', '-m', model], 3); // 3: a sample ended in error
    writeReplay(samples, B);
    runB = await newRun([...SIMILAR, '--limit', '11', '-m', model]);
  });

  test('the stored scores are the ones planned (so the figures below are computed by hand from them)', async () => {
    const store = await openSqliteStore(db);
    try {
      const verdict = (r: { status: string; score: { value: unknown } | null }): string =>
        r.status === 'error' ? 'missing' : r.score?.value === true ? 'pass' : r.score?.value === false ? 'fail' : 'none';
      assert.deepEqual((await store.results(runA, model)).map(verdict), [...A]);
      assert.deepEqual((await store.results(runB, model)).map(verdict), [...B]);
    } finally {
      await store.close();
    }
  });

  test('--json: buckets, rates, Newcombe interval and McNemar as computed by hand', async () => {
    const result = await run(['compare', runA, runB, '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(linesOf(result.stdout).length, 1);
    const c = JSON.parse(result.stdout) as RunComparison;
    assert.deepEqual(Object.keys(c), ['task', 'runA', 'runB', 'notes', 'comparisons']);
    assert.equal(c.task, 'metatool/similar');
    assert.equal(c.runA.id, runA);
    assert.deepEqual(c.notes, []);
    assert.equal(c.comparisons.length, 1);
    const m = c.comparisons[0];
    assert.ok(m);
    assert.deepEqual([m.modelA, m.modelB], [model, model]);
    assert.deepEqual(m.samples, { shared: 10, onlyInA: 0, onlyInB: 1, errors: 1, inputDiffers: 0 });
    assert.deepEqual(m.errorIds, [ids[9]]);
    assert.equal(m.value, null);
    const pf = m.passFail;
    assert.ok(pf);
    assert.deepEqual(pf.buckets, {
      newlyFailing: [ids[3]],
      newlyPassing: [ids[4], ids[5], ids[6]],
      stillFailing: [ids[7]],
      unchanged: [ids[0], ids[1], ids[2]],
      noVerdict: [ids[8]],
    });
    // 8 pairs decided on both sides: A passes 4 (s0–s3), B 6 (s0–s2, s4–s6); B − A = 2/8.
    assert.deepEqual([pf.decided, pf.noVerdict, pf.rateA, pf.rateB, pf.difference], [8, 1, 0.5, 0.75, 0.25]);
    // Discordant: 1 newly failing, 3 newly passing: p = 2·P(X ≤ 1 | 4, ½) = 2·5/16; χ² = (2 − 1)²/4.
    assert.deepEqual(pf.intervalMethod === 'newcombe-paired-hybrid-score' ? pf.mcnemar : pf, { firstOnly: 1, secondOnly: 3, exactP: 0.625, chiSquare: 0.25 });
    // ad = bc = 3, so phi = 0 and the Wilson distances of 6/8 and 4/8 add in squares:
    // 0.25 ∓ √((0.75 − 0.40928)² + (0.78478 − 0.5)²), … → −0.1941 and +0.5861.
    assert.ok(pf.interval && Math.abs(pf.interval.low + 0.1941) < 1e-4 && Math.abs(pf.interval.high - 0.5861) < 1e-4, JSON.stringify(pf.interval));
  });

  test('console: the table, what was left out, and each bucket with its ids', async () => {
    const result = await run(['compare', runA.slice(0, -2), runB]); // a unique prefix works as for show
    assert.equal(result.code, 0, result.stderr);
    const out = result.stdout;
    assert.match(out, new RegExp(`^compare metatool/similar: B against A\\n  run A ${runA} `));
    assert.match(out, /samples: 10 in both runs, 0 only in A, 1 only in B; 1 ended in error on a side/);
    assert.match(out, /pass rate\s+8\s+0\.500\s+0\.750\s+\+0\.250\s+\[−0\.194, \+0\.586\]\s+0\.625\s+McNemar exact/);
    assert.match(out, /\(1 without a verdict on a side left out\)/);
    assert.match(out, new RegExp(`newly failing \\(A pass, B fail\\)\\s+1\\s+${ids[3]}\\n`));
    assert.match(out, new RegExp(`newly passing \\(A fail, B pass\\)\\s+3\\s+${ids[4]}, ${ids[5]}, ${ids[6]}\\n`));
    assert.match(out, new RegExp(`still failing \\(fail on both\\)\\s+1\\s+${ids[7]}\\n`));
    assert.match(out, new RegExp(`unchanged \\(pass on both\\)\\s+3\\s+${ids[0]}, ${ids[1]}, ${ids[2]}\\n`));
    assert.match(out, new RegExp(`no verdict on a side\\s+1\\s+${ids[8]}\\n`));
    assert.match(out, new RegExp(`error on a side\\s+1\\s+${ids[9]}\\n`));
  });
});

describe('assay compare: two models in separate runs (baseline:lexical, then baseline:random)', { skip }, () => {
  let lexical = '';
  let random = '';

  before(async () => {
    lexical = await newRun([...SIMILAR, '-m', 'baseline:lexical']);
    random = await newRun([...SIMILAR, '-m', 'baseline:random']);
  });

  test('buckets and rates match the stored scores; the same runs give the same output', async () => {
    const store = await openSqliteStore(db);
    const expected = { newlyFailing: [] as string[], newlyPassing: [] as string[], stillFailing: [] as string[], unchanged: [] as string[], noVerdict: [] as string[] };
    try {
      const b = new Map((await store.results(random, 'baseline:random')).map((r) => [r.sampleId, r.score?.value]));
      for (const r of await store.results(lexical, 'baseline:lexical')) {
        const [was, is] = [r.score?.value, b.get(r.sampleId)];
        assert.ok(typeof was === 'boolean' && typeof is === 'boolean', 'baselines always give a verdict');
        const bucket = was && is ? 'unchanged' : was ? 'newlyFailing' : is ? 'newlyPassing' : 'stillFailing';
        expected[bucket].push(r.sampleId);
      }
    } finally {
      await store.close();
    }
    const result = await run(['compare', lexical, random, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const c = JSON.parse(result.stdout) as RunComparison;
    assert.deepEqual(c.notes, ['different models: baseline:lexical (run A) against baseline:random (run B)']);
    const pf = c.comparisons[0]?.passFail;
    assert.deepEqual(pf?.buckets, expected);
    const n = 199;
    assert.equal(pf?.decided, n);
    assert.equal(pf?.rateA, (expected.unchanged.length + expected.newlyFailing.length) / n);
    assert.equal(pf?.rateB, (expected.unchanged.length + expected.newlyPassing.length) / n);
    assert.ok(expected.newlyFailing.length > expected.newlyPassing.length, 'the lexical baseline beats the random one');
    assert.ok(pf && pf.interval && pf.interval.high < 0 && pf.intervalMethod === 'newcombe-paired-hybrid-score' && pf.mcnemar.exactP < 0.001, 'and the comparison says so');
    assert.equal((await run(['compare', lexical, random, '--json'])).stdout, result.stdout, 'deterministic');
  });

  test('refusals, one line and exit 2: runs of different tasks; models that do not pair; no shared sample', async () => {
    const awareness = await newRun(['metatool/awareness', '--limit', '3', '-m', 'baseline:random']);
    assertRefused(await run(['compare', lexical, awareness]), new RegExp(`run ${lexical} with run ${awareness}: run A is metatool/similar, run B is metatool/awareness`));

    const both = await newRun([...SIMILAR, '--limit', '5', '-m', 'baseline:lexical', '-m', 'baseline:random']);
    const first = JSON.parse(linesOf((await assay(['samples', ...SIMILAR, '--limit', '1', '--json'], env)).stdout)[0] ?? '{}') as { id: string; target: string };
    const replayOnly = path.join(work, 'one.jsonl');
    writeFileSync(replayOnly, `${JSON.stringify({ id: first.id, output: first.target })}\n`);
    const other = await newRun([...SIMILAR, '--limit', '1', '-m', `replay:${replayOnly}`]);
    assertRefused(await run(['compare', both, other]), /cannot pair the models of run .*no model is in both/);

    // The user's own tools: the same task, other samples.
    const tools = Array.from({ length: 10 }, (_, i) => ({ name: `tool_${i}`, description: `Does thing number ${i} for a user`, queries: [`Please do thing ${i}`] }));
    const toolsFile = path.join(work, 'tools.json');
    writeFileSync(toolsFile, JSON.stringify(tools));
    const own = await newRun(['metatool/similar', '--per-tool', '1', '--tools', toolsFile, '-m', 'baseline:lexical']);
    assertRefused(await run(['compare', lexical, own]), /share no sample with the same input and a result on both sides \(baseline:lexical: 199 result\(s\) in A, 10 in B\)/);
  });
});
