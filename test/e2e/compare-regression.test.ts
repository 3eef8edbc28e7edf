import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assay, linesOf, type CliResult } from '../../src/testing/cli-harness.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import type { GateResult } from '../../src/gates/gate-result.js';

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

const work = mkdtempSync(path.join(tmpdir(), 'assay-regression-e2e-'));
after(() => rmSync(work, { recursive: true, force: true }));

const env: NodeJS.ProcessEnv = {
  ASSAY_DATA_DIR: testDataDir(),
  XDG_CACHE_HOME: path.join(work, 'cache'),
  ASSAY_METATOOL_BASE_URL: 'http://127.0.0.1:9/unreachable/',
  ASSAY_FUNCTIONCHAT_BASE_URL: 'http://127.0.0.1:9/unreachable/',
};
const db = path.join(work, 'assay.db');
const run = (args: readonly string[]): Promise<CliResult> => assay([...args, '--db', db], env);
const SIMILAR = ['metatool/similar', '--per-tool', '1', '--limit', '20'];

describe('assay compare --fail-on-regression: two replayed runs with a known difference', { skip }, () => {
  // 20 MetaTool samples. Baseline A: every answer the gold tool (20 passes). Candidate B: the
  // first 8 answer "none" (fail), the other 12 the gold tool. Paired table: both pass 12, A only
  // 8, B only 0, neither 0 → B − A = 12/20 − 20/20 = −0.4.
  // Newcombe's hybrid score interval by hand (z = 1.95996, z² = 3.8415): Wilson of A's 20/20 is
  // [20/23.8415, 1] = [0.83887, 1]; of B's 12/20: centre (0.6 + 0.09604)/1.19207 = 0.58389,
  // half-width 1.96·√(0.012 + 0.0024009)/1.19207 = 0.19732 → [0.38657, 0.78121]. A's side has
  // no spread (c + d = 0), so φ = 0: low = −0.4 − (0.6 − 0.38657) = −0.61343,
  // high = −0.4 + √(0.18121² + (1 − 0.83887)²) = −0.4 + 0.24249 = −0.15751.
  const handInterval = { low: -0.61343, high: -0.15751 };
  const replay = (name: string) => path.join(work, name);
  let runA = '';
  let runB = '';

  before(async () => {
    const listed = await assay(['samples', ...SIMILAR, '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const samples = linesOf(listed.stdout).map((l) => JSON.parse(l) as { id: string; target: string });
    assert.equal(samples.length, 20);
    const write = (file: string, failing: number) =>
      writeFileSync(replay(file), `${samples.map((s, i) => JSON.stringify({ id: s.id, output: i < failing ? 'none' : s.target })).join('\n')}\n`);
    write('a.jsonl', 0);
    write('b.jsonl', 8);
    // One model id for both runs: the same model, before and after (the file is copied in between).
    const model = replay('outputs.jsonl');
    const newRun = async (from: string): Promise<string> => {
      writeFileSync(model, readFileSync(replay(from)));
      const result = await run(['run', ...SIMILAR, '-m', `replay:${model}`, '--json']);
      assert.equal(result.code, 0, result.stderr);
      return (JSON.parse(result.stdout) as { run: string }).run;
    };
    runA = await newRun('a.jsonl');
    runB = await newRun('b.jsonl');
  });

  test('a drop of 40 points whose interval lies wholly below −0.02: exit 4, the table says why', async () => {
    const result = await run(['compare', runA, runB, '--fail-on-regression', '0.02']);
    assert.equal(result.code, 4, result.stderr);
    assert.match(result.stdout, new RegExp(`\\nregression \\(margin 0\\.02, run ${runA} the baseline\\):\\n`));
    assert.match(result.stdout, /pass rate\s+-40\.0%\s+\[-61\.3%, -15\.8%\] misses\s+regression: no regression beyond -2\.0% vs run \S+\s+fail\n/);
    assert.match(result.stdout, /fail: metatool\/similar · replay:\S+ · pass rate: B − A of pass rate over 20 paired sample\(s\): -40\.0%, 95% interval \[-61\.3%, -15\.8%\]: the whole interval is worse than a drop of 2\.0%: a regression\n/);
    assert.match(result.stdout, /gates: 0 passed, 1 failed, 0 inconclusive\n$/);
  });

  test('--json: the comparison with a regression object; the figures are the hand computation', async () => {
    const result = await run(['compare', runA, runB, '--fail-on-regression', '0.02', '--json']);
    assert.equal(result.code, 4, result.stderr);
    const parsed = JSON.parse(result.stdout) as { regression: { margin: number; regressed: boolean; results: GateResult[] } };
    assert.deepEqual(Object.keys(parsed), ['task', 'runA', 'runB', 'notes', 'comparisons', 'regression']);
    assert.equal(parsed.regression.margin, 0.02);
    assert.equal(parsed.regression.regressed, true);
    const [r] = parsed.regression.results;
    assert.equal(r?.value, -0.4);
    assert.ok(Math.abs((r?.interval?.low ?? 0) - handInterval.low) < 1e-4 && Math.abs((r?.interval?.high ?? 0) - handInterval.high) < 1e-4, JSON.stringify(r?.interval));
  });

  test('a margin the interval straddles (0.5) or clears (0.7) is no regression: exit 0', async () => {
    const straddled = await run(['compare', runA, runB, '--fail-on-regression', '0.5']);
    assert.equal(straddled.code, 0, straddled.stderr);
    assert.match(straddled.stdout, /\[-61\.3%, -15\.8%\] straddles .* pass\n/);
    const cleared = await run(['compare', runA, runB, '--fail-on-regression', '0.7']);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.match(cleared.stdout, /\[-61\.3%, -15\.8%\] clears .* pass\n/);
  });

  test('the other way round (B the baseline) is an improvement: exit 0', async () => {
    const result = await run(['compare', runB, runA, '--fail-on-regression', '0']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\+40\.0%\s+\[\+15\.8%, \+61\.3%\] clears/);
  });

  test('without the flag compare exits 0 and prints what it always did', async () => {
    const plain = await run(['compare', runA, runB]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.doesNotMatch(plain.stdout, /regression \(margin/);
  });

  test('a margin that is not a number ≥ 0 is refused in one line, exit 2', async () => {
    for (const margin of ['abc', '-0.1', '']) {
      const result = await run(['compare', runA, runB, '--fail-on-regression', margin]);
      assert.equal(result.code, 2, `${margin}: ${result.stderr}`);
      assert.equal(linesOf(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, /--fail-on-regression <margin>' argument .* is invalid\. expected a number ≥ 0/);
    }
  });
});
