import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createScriptedProvider, findTask, openSqliteStore, readRunBothWays, startRun, type RunSpec } from '../../src/index.js';
import { testDataDir } from '../../src/testing/test-data.js';

// A model that is always right, in nine usual phrasings of yes and nine of no. Beside each, the
// reading worked out by hand from the paper's rules (docs/metatool.md) and from assay's strict
// leading-word rule. Paper rules: (1) "no" and no "yes" → no with one of five phrases, else yes;
// (2) "yes" and none of "no"/"not"/"don’t" → yes; (3) one of fifteen phrases → yes; (4) manual.
const YES: readonly (readonly [answer: string, paper: 'yes' | 'no' | 'manual', strict: 'yes' | 'no' | null])[] = [
  ['Yes', 'yes', 'yes'], // rule 2
  ['Yes.', 'yes', 'yes'], // rule 2
  ['Yes, I need to use a tool.', 'yes', 'yes'], // rule 2 (no "no"/"not")
  ['YES', 'yes', 'yes'], // rule 2
  ['**Yes** — this needs real-time information.', 'yes', 'yes'], // rule 2
  ['Answer: yes', 'yes', 'yes'], // rule 2
  ['I think it is necessary to use a tool here.', 'yes', null], // rule 3; strict: no leading yes/no
  ['Yes, because I don\u2019t know today\u2019s exchange rate.', 'manual', 'yes'], // rules 1–3 fail ("know" has "no", "don’t" blocks 2)
  ['An external tool is needed: yes.', 'yes', null], // rule 2; strict: not leading
];
const NO: readonly (readonly [answer: string, paper: 'yes' | 'no' | 'manual', strict: 'yes' | 'no' | null])[] = [
  ['No', 'yes', 'no'], // rule 1, no phrase: the quirk
  ['No.', 'yes', 'no'],
  ['No, I do not need to use a tool.', 'no', 'no'], // "not need to use"
  ['NO', 'yes', 'no'],
  ['I do not think it is necessary to use a tool.', 'no', null], // "not think it is necessary"
  ['Answer: no', 'yes', 'no'],
  ['It does not seem necessary to use a tool.', 'no', null], // "not seem necessary"
  ['No \u2014 I can answer this from general knowledge.', 'yes', 'no'],
  ['No, I do not think I need to use any tool.', 'no', 'no'], // "do not think i need to use"
];

test('awareness: an always-right model in nine phrasings — the paper reading equals the paper\'s rules by hand, and show --readings gives both', async () => {
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
  const phrasing = new Map<string, { needsTool: boolean; k: number }>();
  const seen = { yes: 0, no: 0 };
  for (const sample of prepared.samples) {
    const needsTool = sample.metadata['needsTool'] === true;
    const k = (needsTool ? seen.yes++ : seen.no++) % 9;
    phrasing.set(String(sample.metadata['query']), { needsTool, k });
  }
  const model = createScriptedProvider({
    id: 'scripted:nine',
    respond: (request) => {
      const item = phrasing.get(request.hints?.kind === 'yes-no' ? request.hints.query : '');
      if (!item) throw new Error('no hint');
      return ((item.needsTool ? YES : NO)[item.k] as (typeof YES)[number])[0];
    },
  });

  // The expected metrics, from the hand readings above and how many items got each phrasing.
  const count = (needsTool: boolean, k: number): number => [...phrasing.values()].filter((p) => p.needsTool === needsTool && p.k === k).length;
  const tally = (reading: 1 | 2) => {
    let tp = 0, fn = 0, fp = 0, tn = 0, undecided = 0;
    for (const [needsTool, table] of [[true, YES], [false, NO]] as const) {
      table.forEach((row, k) => {
        const n = count(needsTool, k);
        const read = row[reading];
        if (read === 'manual' || read === null) undecided += n;
        else if (needsTool) read === 'yes' ? (tp += n) : (fn += n);
        else read === 'yes' ? (fp += n) : (tn += n);
      });
    }
    return { tp, fn, fp, tn, undecided };
  };
  assert.equal(seen.yes, 520);
  assert.equal(seen.no, 520);
  const p = tally(1);
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
      precision: 463 / (463 + 289),
      recall: 1,
      f1: (2 * 463) / (2 * 463 + 289 + 0),
      manual: 57,
      decided: 983,
    });
    assert.equal(summary.models['scripted:nine']?.counts.no_verdict, 57, 'manual analysis is a no verdict of its own kind');

    const both = await readRunBothWays(store, summary.run);
    assert.deepEqual(both.models['scripted:nine']?.metrics['paper'], metrics);
    // Strict, by hand: positives with no leading yes/no are phrasings 6 and 8 (58 + 57) → tp 405;
    // negatives 4 and 6 (58 + 58) → tn 404, fp 0. Rates over all 1,040; no verdict counts as wrong
    // and, for a positive, as missed.
    const s = tally(2);
    assert.deepEqual(s, { tp: 405, fn: 0, fp: 0, tn: 404, undecided: 231 });
    assert.deepEqual(both.models['scripted:nine']?.metrics['strict'], {
      accuracy: 809 / 1040,
      precision: 1,
      recall: 405 / 520,
      f1: (2 * 405) / (2 * 405 + 0 + 115),
      no_verdict: 231 / 1040,
    });
    // Outputs whose verdict differs: positives 6, 7, 8 (58 + 57 + 57) and negatives 0, 1, 3, 4, 5, 6, 7 (6·58 + 57).
    assert.equal(both.models['scripted:nine']?.outputs, 1040);
    assert.equal(both.models['scripted:nine']?.differing, 172 + 405);
  } finally {
    await store.close();
  }
});
