import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createScriptedProvider, findTask, openSqliteStore, readRunBothWays, startRun, type RunSpec } from '../../src/index.js';
import { assignPhrasings, phrasingText, tallyPhrasings } from '../../src/testing/awareness-phrasings.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';
import { wilsonInterval } from '../../src/metrics/intervals.js';

/** Wilson's 95% interval of hits of n, as the metrics carry it beside a rate. */
const wilson = (hits: number, n: number): { low: number; high: number } | null => {
  const ci = wilsonInterval(hits, n);
  return ci && { low: ci.low, high: ci.high };
};

/** Without the benchmark data these tests are skipped, saying how to get it. */
const skip = needsData('metatool');

// The nine-phrasings always-right model and the readings of each phrasing by hand live in
// src/testing/awareness-phrasings.ts (shared with the upstream-prompts test).
test('awareness: an always-right model in nine phrasings — the paper reading equals the paper\'s rules by hand, and show --readings gives both', { skip }, async () => {
  const spec: RunSpec = {
    task: 'metatool/awareness',
    models: ['scripted:nine'],
    seed: 1,
    options: { parser: 'paper' },
    dataDir: testDataDir(),
    engine: { concurrency: 8, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false },
  };
  // Each item gets the phrasing of its position among the items of its label, cycling through nine.
  const prepared = await findTask(spec.task).prepare({ dataDir: spec.dataDir, seed: spec.seed, options: spec.options });
  const phrasing = assignPhrasings(Array.from(prepared.samples));
  const model = createScriptedProvider({
    id: 'scripted:nine',
    respond: (_request, { sampleId }) => {
      const choice = phrasing.get(sampleId ?? '');
      if (!choice) throw new Error(`no phrasing for ${String(sampleId)}`);
      return phrasingText(choice);
    },
  });

  // The expected metrics, from the hand readings of each phrasing and how many items got it.
  const labels = [...phrasing.values()];
  assert.equal(labels.filter((c) => c.needsTool).length, 520);
  assert.equal(labels.filter((c) => !c.needsTool).length, 520);
  const p = tallyPhrasings(phrasing, 'paper');
  // By hand: 520 = 57·9 + 7, so phrasings 0–6 go to 58 items of each label and 7–8 to 57.
  // Paper: positives all yes but phrasing 7 (57 manual) → tp 463; negatives right only for
  // phrasings 2, 4, 6, 8 → tn 58+58+58+57 = 231, fp 289. Decided 983.
  assert.deepEqual(p, { tp: 463, fn: 0, fp: 289, tn: 231, undecided: 57 });

  const store = await openSqliteStore(':memory:');
  try {
    const summary = await startRun(spec, { store, providers: { 'scripted:nine': model } });
    const metrics = summary.models['scripted:nine']?.metrics;
    assert.deepEqual(metrics, {
      accuracy: (463 + 231) / 983,
      accuracy_ci95: wilson(463 + 231, 983),
      precision: 463 / (463 + 289),
      precision_ci95: wilson(463, 463 + 289),
      recall: 1,
      recall_ci95: wilson(463, 463),
      f1: (2 * 463) / (2 * 463 + 289 + 0),
      manual: 57,
      decided: 983,
      confusion: { tp: 463, fp: 289, tn: 231, fn: 0, no_verdict: 0 },
    });
    assert.equal(summary.models['scripted:nine']?.counts.no_verdict, 57, 'manual analysis is a no verdict of its own kind');

    const both = await readRunBothWays(store, summary.run);
    assert.deepEqual(both.models['scripted:nine']?.metrics['paper'], metrics);
    // Strict, by hand: positives with no leading yes/no are phrasings 6 and 8 (58 + 57) → tp 405;
    // negatives 4 and 6 (58 + 58) → tn 404, fp 0. Rates over all 1,040; no verdict counts as wrong
    // and, for a positive, as missed.
    const s = tallyPhrasings(phrasing, 'strict');
    assert.deepEqual(s, { tp: 405, fn: 0, fp: 0, tn: 404, undecided: 231 });
    assert.deepEqual(both.models['scripted:nine']?.metrics['strict'], {
      accuracy: 809 / 1040,
      accuracy_ci95: wilson(809, 1040),
      precision: 1,
      precision_ci95: wilson(405, 405),
      recall: 405 / 520,
      recall_ci95: wilson(405, 520),
      f1: (2 * 405) / (2 * 405 + 0 + 115),
      no_verdict: 231 / 1040,
      no_verdict_ci95: wilson(231, 1040),
      confusion: { tp: 405, fp: 0, tn: 404, fn: 0, no_verdict: 231 },
    });
    // Outputs whose verdict differs: positives 6, 7, 8 (58 + 57 + 57) and negatives 0, 1, 3, 4, 5, 6, 7 (6·58 + 57).
    assert.equal(both.models['scripted:nine']?.outputs, 1040);
    assert.equal(both.models['scripted:nine']?.differing, 172 + 405);
  } finally {
    await store.close();
  }
});
