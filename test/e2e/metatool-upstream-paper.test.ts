import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createScriptedProvider,
  findTask,
  openSqliteStore,
  readRunBothWays,
  startRun,
  type RunSpec,
  type Sample,
} from '../../src/index.js';
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

// `--prompts upstream --parser paper`, the paper's pipeline end to end: the shipped prompt files
// byte for byte, read by the paper's rules, with a model that is always right in realistic
// phrasings. The figures are worked out by hand and checked against an independent tally of the
// paper's rules (docs/metatool.md); docs/metatool.md's table of what this mode gives quotes them.

const MODEL = 'scripted:right';

function specFor(task: string): RunSpec {
  return {
    task,
    models: [MODEL],
    seed: 1,
    options: { prompts: 'upstream', parser: 'paper' },
    dataDir: testDataDir(),
    engine: { concurrency: 8, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false },
  };
}

async function preparedSamples(spec: RunSpec): Promise<readonly Sample[]> {
  return Array.from((await findTask(spec.task).prepare({ dataDir: spec.dataDir, seed: spec.seed, options: spec.options })).samples);
}

/** Runs the spec with a scripted model answering each sample by id; the paper summary and both readings. */
async function runWith(spec: RunSpec, answerOf: (sampleId: string) => string) {
  const store = await openSqliteStore(':memory:');
  try {
    const summary = await startRun(spec, { store, providers: { [MODEL]: createScriptedProvider({ id: MODEL, respond: (_request, { sampleId }) => answerOf(sampleId ?? '') }) } });
    const both = await readRunBothWays(store, summary.run);
    return { summary: summary.models[MODEL], both: both.models[MODEL] };
  } finally {
    await store.close();
  }
}

const candidatesOf = (sample: Sample): string[] => sample.metadata['candidates'] as string[];
const goldOf = (sample: Sample): string[] => sample.metadata['gold'] as string[];

/** The paper's selection rule, written again here: the shown names found as lowercase substrings. */
const paperFound = (answer: string, candidates: readonly string[]): string[] =>
  candidates.filter((name) => answer.toLowerCase().includes(name.toLowerCase()));

test('awareness, shipped Task1 prompts: the nine-phrasings always-right model read by the paper equals the hand tally', { skip }, async () => {
  const spec = specFor('metatool/awareness');
  const samples = await preparedSamples(spec);
  assert.equal(samples.length, 1040);
  assert.ok(samples.every((s) => s.metadata['source'] === 'upstream' && s.metadata['shots'] === 5), 'the shipped five-shot prompts');
  const phrasing = assignPhrasings(samples);
  // The shipped items in file order, as with assay's prompts: 520 = 57·9 + 7, so phrasings 0–6
  // go to 58 items of each label and 7–8 to 57. Paper: positives all yes but phrasing 7 (57
  // manual) → tp 463; negatives right only for phrasings 2, 4, 6, 8 → tn 231, fp 289; decided 983.
  assert.deepEqual(tallyPhrasings(phrasing, 'paper'), { tp: 463, fn: 0, fp: 289, tn: 231, undecided: 57 });
  // Strict: positives 6 and 8 (58 + 57) and negatives 4 and 6 (58 + 58) have no leading yes/no.
  assert.deepEqual(tallyPhrasings(phrasing, 'strict'), { tp: 405, fn: 0, fp: 0, tn: 404, undecided: 231 });

  const { summary, both } = await runWith(spec, (id) => phrasingText(phrasing.get(id) ?? assert.fail(`no phrasing for ${id}`)));
  const paper = { accuracy: 694 / 983, accuracy_ci95: wilson(694, 983), precision: 463 / 752, precision_ci95: wilson(463, 752), recall: 1, recall_ci95: wilson(463, 463), f1: 926 / (926 + 289), manual: 57, decided: 983, confusion: { tp: 463, fp: 289, tn: 231, fn: 0, no_verdict: 0 } };
  assert.deepEqual(summary?.metrics, paper);
  assert.equal(summary?.counts.no_verdict, 57);
  assert.deepEqual(both?.metrics['paper'], paper);
  assert.deepEqual(both?.metrics['strict'], { accuracy: 809 / 1040, accuracy_ci95: wilson(809, 1040), precision: 1, precision_ci95: wilson(405, 405), recall: 405 / 520, recall_ci95: wilson(405, 520), f1: 810 / (810 + 115), no_verdict: 231 / 1040, no_verdict_ci95: wilson(231, 1040), confusion: { tp: 405, fp: 0, tn: 404, fn: 0, no_verdict: 231 } });
});

// Reliability: the right answer is always "None". Phrasing 7 names the closest shown tool beside
// its "None", which the paper's rule (one name and "none") sends to manual analysis.
const NONE_PHRASINGS: readonly ((candidates: readonly string[]) => string)[] = [
  () => 'None',
  () => 'None.',
  () => 'None of the tools fit this query.',
  () => '**None** — no tool in the list fits.',
  () => 'Answer: None',
  () => 'None of the listed tools can help with this.',
  () => 'There is no suitable tool in the list, so my answer is None.',
  (candidates) => `None. The closest is ${candidates[0] ?? ''}, but it cannot do this.`,
  () => 'None. This query needs a tool that is not in the list.',
];

test('reliability, shipped Task2-Subtask3 prompts: an always-right model read by the paper equals the hand tally', { skip }, async () => {
  const spec = specFor('metatool/reliability');
  const samples = await preparedSamples(spec);
  assert.equal(samples.length, 995);
  const answers = new Map(samples.map((s, i) => [s.id, (NONE_PHRASINGS[i % 9] as (c: readonly string[]) => string)(candidatesOf(s))]));
  // Independent tally (paper): no name → None (right); one name with "none", or two names → manual.
  let right = 0, manual = 0;
  for (const s of samples) {
    const answer = answers.get(s.id) as string;
    const found = paperFound(answer, candidatesOf(s));
    if (found.length === 0) right++;
    else if (found.length > 1 || answer.toLowerCase().includes('none')) manual++;
  }
  // By hand: 995 = 110·9 + 5, so phrasings 0–4 go to 111 samples and 5–8 to 110; no shown name
  // is a substring of the fixed phrasings, and phrasing 7 (110) names one beside "none".
  assert.deepEqual({ right, manual }, { right: 885, manual: 110 });

  const { summary, both } = await runWith(spec, (id) => answers.get(id) ?? assert.fail(`no answer for ${id}`));
  assert.deepEqual(summary?.metrics, { csr: 1, csr_ci95: wilson(885, 885), manual: 110, decided: 885 });
  assert.deepEqual(both?.metrics['paper'], summary?.metrics);
  // Strict reads phrasing 7's "None." as prose (not on a line of its own, not set off) and the
  // named tool as the answer: wrong, not a hallucination (it was shown) — unless that tool is
  // `speak`, an ordinary word written in lower case mid-sentence, which is prose too: "None".
  const speakFirst = samples.filter((s, i) => i % 9 === 7 && candidatesOf(s)[0] === 'speak').length;
  assert.equal(speakFirst, 6);
  assert.deepEqual(both?.metrics['strict'], { csr: (885 + 6) / 995, csr_ci95: wilson(885 + 6, 995), no_verdict: 0, no_verdict_ci95: wilson(0, 995), hallucinated: 0, hallucinated_ci95: wilson(0, 995) });
});

// Multi, must choose two: the right answer names both golds. Phrasing 7 also names a shown tool
// it rejects, which the paper's rule (more than two names) sends to manual analysis.
const TWO_PHRASINGS: readonly ((a: string, b: string, other: string) => string)[] = [
  (a, b) => `${a}, ${b}`,
  (a, b) => `${a} and ${b}`,
  (a, b) => `I would use ${a} and ${b}.`,
  (a, b) => `1. ${a}\n2. ${b}`,
  (a, b) => `**${a}** and **${b}**`,
  (a, b) => `Tools: ${b}, ${a}`,
  (a, b) => `${a} to find it, then ${b} to act on it.`,
  (a, b, other) => `${a} and ${b}; ${other} does not fit.`,
  (a, b) => `The two tools are ${a} and ${b}.`,
];

test('multi, shipped Task2-Subtask4 prompts (must choose two): an always-right model read by the paper equals the hand tally', { skip }, async () => {
  const spec = specFor('metatool/multi');
  const samples = await preparedSamples(spec);
  assert.equal(samples.length, 497);
  const answers = new Map(
    samples.map((s, i) => {
      const [a, b] = goldOf(s) as [string, string];
      const other = candidatesOf(s).find((c) => c !== a && c !== b) as string;
      return [s.id, (TWO_PHRASINGS[i % 9] as (a: string, b: string, o: string) => string)(a, b, other)];
    }),
  );
  // Independent tally (paper): exactly two names, both golds → right; more than two → manual.
  let right = 0, wrong = 0, manual = 0;
  for (const s of samples) {
    const found = paperFound(answers.get(s.id) as string, candidatesOf(s));
    if (found.length > 2) manual++;
    else if (found.length === 2 && goldOf(s).every((g) => found.includes(g))) right++;
    else wrong++;
  }
  // By hand: 497 = 55·9 + 2, so phrasings 0–1 go to 56 samples and 2–8 to 55; no gold holds
  // another shown name, and phrasing 7 (55) names three.
  assert.deepEqual({ right, wrong, manual }, { right: 442, wrong: 0, manual: 55 });

  const { summary, both } = await runWith(spec, (id) => answers.get(id) ?? assert.fail(`no answer for ${id}`));
  const paper = { csr_2of2: null, csr_2of2_ci95: null, csr_1of1: null, csr_1of1_ci95: null, csr_1of2: null, csr_1of2_ci95: null, csr_must2: 1, csr_must2_ci95: wilson(442, 442), manual: 55, decided: 442 };
  assert.deepEqual(summary?.metrics, paper);
  assert.deepEqual(both?.metrics['paper'], paper);
  // Strict differs where a gold is the ordinary word "Discount" opening a sentence (prose, not a
  // name, by the strict rules): phrasings 6 and 7 of those samples read one gold fewer.
  const discountFirst = (phrasing: number): number => samples.filter((s, i) => goldOf(s)[0] === 'Discount' && i % 9 === phrasing).length;
  assert.deepEqual([discountFirst(6), discountFirst(7)], [3, 3]);
  // Phrasing 7 otherwise names three tools: no verdict (55 − 3); those six are wrong.
  assert.deepEqual(both?.metrics['strict'], {
    csr_2of2: null,
    csr_2of2_ci95: null,
    csr_1of1: null,
    csr_1of1_ci95: null,
    csr_1of2: null,
    csr_1of2_ci95: null,
    csr_must2: (497 - 52 - 6) / 497,
    csr_must2_ci95: wilson(497 - 52 - 6, 497),
    no_verdict: 52 / 497,
    no_verdict_ci95: wilson(52, 497),
    hallucinated: 0,
    hallucinated_ci95: wilson(0, 497),
  });
});
