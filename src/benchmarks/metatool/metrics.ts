import { isNoVerdict, type Score } from '../../core/index.js';
import { isManualAnalysis } from './scoring.js';
import { BinaryTally } from '../../metrics/classification.js';
import { RateTally, ratio, shareWithInterval } from '../../metrics/rates.js';
import { foldRows } from '../metrics-fold.js';
import type { Metrics, MetricsFold, ScoredSample } from '../task.js';
import { awarenessMeta, selectionMeta, type SelectionMeta } from './metadata.js';
import { isPaperScore, sameSet } from './scoring.js';

/**
 * MetaTool metrics. Every rate is a fraction in [0, 1], or null when its denominator is 0.
 * Samples without a score (the model call failed) are left out of every denominator.
 *
 * Strict reading: a no-verdict score stays in every denominator and counts as not correct.
 * Paper reading (scores made with `--parser paper`): as the paper reports, rates are over the
 * **decided** answers; answers the paper's rules leave to manual analysis are counted apart as
 * `manual` (with `decided` beside it), never as a pass or a fail. The reading is told from the
 * scores themselves, so a run re-scored with `assay rescore --parser` is summarized right.
 *
 * Each is a fold ({@link MetricsFold}): the rows are counted one at a time under both readings
 * (every scored row; the decided ones), and the reading the scores turn out to have is the one
 * finished, so the summary holds counters, not rows.
 */

interface Scored<M> {
  readonly meta: M;
  readonly score: Score;
  /** A human reviewer's verdict (`ScoredSample.review`); the score's value holds it too. */
  readonly review?: boolean;
}

/** One reading's counts of scored rows, finished with what the reading adds (the paper's `manual` and `decided`). */
interface ScoredTally<M> {
  add(row: Scored<M>): void;
  finish(reading: Reading): Metrics;
}

/**
 * How the scores were read. Paper: the metrics are over the decided rows, with the two counts
 * reported beside them; strict: over every scored row, nothing beside.
 */
interface Reading {
  readonly paper: boolean;
  readonly counts: Metrics;
}

/**
 * The fold of a MetaTool metric: rows without a score left out, each scored row counted by the
 * strict tally and, unless the paper's rules left it to manual analysis, by the decided one; the
 * paper reading is finished when any score was read with the paper's rules.
 */
function readingFold<M>(read: (row: ScoredSample) => M, tally: () => ScoredTally<M>): MetricsFold {
  const all = tally();
  const decided = tally();
  let scored = 0;
  let decidedCount = 0;
  let paper = false;
  return {
    add(row) {
      if (row.score === undefined) return;
      const scoredRow: Scored<M> = { meta: read(row), score: row.score, ...(row.review !== undefined ? { review: row.review } : {}) };
      scored++;
      if (!paper && isPaperScore(row.score)) paper = true;
      all.add(scoredRow);
      if (isManualAnalysis(row.score)) return;
      decidedCount++;
      decided.add(scoredRow);
    },
    finish() {
      return paper ? decided.finish({ paper: true, counts: { manual: scored - decidedCount, decided: decidedCount } }) : all.finish({ paper: false, counts: {} });
    },
  };
}

/** The tool names a selection score's answer holds; null for a no verdict. */
function answeredTools(score: Score): readonly string[] | null {
  const { answer } = score;
  return Array.isArray(answer) && answer.every((x) => typeof x === 'string') ? (answer as string[]) : null;
}

function hallucinatedAny(score: Score): boolean {
  const h = score.metadata?.hallucinated;
  return Array.isArray(h) && h.length > 0;
}

/** Hits of a share over its rows, counted a row at a time. */
class ShareTally {
  hits = 0;
  n = 0;

  add(hit: boolean): void {
    this.n++;
    if (hit) this.hits++;
  }

  /** The share under `name` with its Wilson 95% interval under `<name>_ci95`. */
  withInterval(name: string): Metrics {
    return shareWithInterval(name, this.hits, this.n);
  }
}

/**
 * `accuracy, precision, recall, f1, no_verdict` with "needs a tool" as the positive class, and the
 * `confusion` counts they come from (`tp`, `fp`, `tn`, `fn`; `no_verdict` apart, never in a cell).
 */
export function awarenessMetrics(rows: Iterable<ScoredSample>): Metrics {
  return foldRows(awarenessFold(), rows);
}

/** {@link awarenessMetrics} a row at a time. */
export function awarenessFold(): MetricsFold {
  return readingFold((r) => awarenessMeta(r.sample), () => {
    const tally = new BinaryTally();
    let positives = 0;
    return {
      add({ meta, score, review }) {
        tally.add({
          // A reviewed answer is right (pass) or wrong (fail) against the label: the yes or no that makes it so.
          predicted: review !== undefined ? review === meta.needsTool : score.answer === 'yes' ? true : score.answer === 'no' ? false : null,
          actual: meta.needsTool,
        });
        if (meta.needsTool) positives++;
      },
      finish(reading) {
        const m = tally.metrics();
        const { total, tp, fp, tn, fn, no_verdict } = m.counts;
        // Each share with its Wilson interval over its own denominator (as binaryClassification's): F1 is not a share of anything, so it has none.
        const rates = { ...shareWithInterval('accuracy', tp + tn, total), ...shareWithInterval('precision', tp, tp + fp), ...shareWithInterval('recall', tp, positives), f1: m.f1 };
        const confusion = { tp, fp, tn, fn, no_verdict };
        return reading.paper ? { ...rates, ...reading.counts, confusion } : { ...rates, ...shareWithInterval('no_verdict', no_verdict, total), confusion };
      },
    };
  });
}

/** What a single-tool task reports beyond `csr`, `no_verdict` and `hallucinated`. */
export interface SingleSelectionBreakdowns {
  /** `csr_by_position`: CSR per 1-based position of the gold tool. */
  readonly byPosition: boolean;
  /** `csr_by_scenario`: CSR per scenario list. */
  readonly byScenario: boolean;
  /** `top1`, `top3`, `top5`: where wrong single answers sit among the gold's nearest tools. */
  readonly topK: boolean;
}

const TOP_KS = [1, 3, 5] as const;

/**
 * Single-tool selection metrics: `csr` (correct / scored), `no_verdict`, `hallucinated` (share of
 * scored samples whose answer named a tool not shown), plus the breakdowns asked for.
 *
 * `topK` (the paper's Top@k error analysis): among wrong answers that selected exactly one tool
 * other than the gold — abstentions and no-verdicts excluded — the share whose tool is among the
 * gold's k nearest *other* tools (`metadata.nearest`).
 */
export function singleSelectionMetrics(rows: Iterable<ScoredSample>, breakdowns: SingleSelectionBreakdowns): Metrics {
  return foldRows(singleSelectionFold(breakdowns), rows);
}

/** {@link singleSelectionMetrics} a row at a time. */
export function singleSelectionFold(breakdowns: SingleSelectionBreakdowns): MetricsFold {
  return readingFold((r) => selectionMeta(r.sample), () => {
    const csr = new ShareTally();
    const noVerdict = new ShareTally();
    const hallucinated = new ShareTally();
    const byPosition = new RateTally();
    const byScenario = new RateTally();
    let wrongSingles = 0;
    const nearWrong = TOP_KS.map(() => 0);
    return {
      add({ meta, score, review }) {
        const correct = score.value === true;
        csr.add(correct);
        noVerdict.add(isNoVerdict(score));
        hallucinated.add(hallucinatedAny(score));
        if (breakdowns.byPosition) byPosition.add(meta.goldPositions[0] === undefined ? undefined : String(meta.goldPositions[0]), correct);
        if (breakdowns.byScenario) byScenario.add(meta.scenario, correct);
        if (!breakdowns.topK) return;
        const tools = answeredTools(score);
        const gold = meta.gold[0];
        // An answer a reviewer passed is not a wrong one.
        if (review === true || tools?.length !== 1 || gold === undefined || tools[0] === gold) return;
        wrongSingles++;
        const nearest = meta.nearest ?? [];
        TOP_KS.forEach((k, i) => {
          if (nearest.slice(0, k).includes(tools[0] as string)) nearWrong[i] = (nearWrong[i] as number) + 1;
        });
      },
      finish(reading) {
        const metrics: Record<string, Metrics[string]> = reading.paper
          ? { ...csr.withInterval('csr'), ...reading.counts }
          : { ...csr.withInterval('csr'), ...noVerdict.withInterval('no_verdict'), ...hallucinated.withInterval('hallucinated') };
        if (breakdowns.byPosition) metrics.csr_by_position = byPosition.rates();
        if (breakdowns.byScenario) metrics.csr_by_scenario = byScenario.rates();
        if (breakdowns.topK) TOP_KS.forEach((k, i) => (metrics[`top${k}`] = ratio(nearWrong[i] as number, wrongSingles)));
        return metrics;
      },
    };
  });
}

/**
 * Multi-tool metrics. Over scored "at most two" samples: `csr_2of2` (the selection is both golds),
 * `csr_1of1` (one tool, a gold), `csr_1of2` (two tools, exactly one a gold). Over scored
 * "must choose two" samples: `csr_must2` (both golds). Over all scored samples: `no_verdict`,
 * `hallucinated`.
 */
export function multiSelectionMetrics(rows: Iterable<ScoredSample>): Metrics {
  return foldRows(multiSelectionFold(), rows);
}

/** {@link multiSelectionMetrics} a row at a time. */
export function multiSelectionFold(): MetricsFold {
  // A reviewer's verdict says whether the selection is right (both golds); the partial counts read
  // the answer's tools, so an answer whose verdict a reviewer overruled counts in none of them.
  const bothGolds = (r: Scored<SelectionMeta>): boolean => {
    const tools = answeredTools(r.score);
    return r.review ?? (tools !== null && sameSet(tools, r.meta.gold));
  };
  const goldsIn = (r: Scored<SelectionMeta>): { tools: readonly string[]; golds: number } | null => {
    const tools = answeredTools(r.score);
    if (tools === null || (r.review !== undefined && r.review !== sameSet(tools, r.meta.gold))) return null;
    return { tools, golds: tools.filter((t) => r.meta.gold.includes(t)).length };
  };
  return readingFold((r) => selectionMeta(r.sample), () => {
    const twoOfTwo = new ShareTally();
    const oneOfOne = new ShareTally();
    const oneOfTwo = new ShareTally();
    const mustTwo = new ShareTally();
    const noVerdict = new ShareTally();
    const hallucinated = new ShareTally();
    return {
      add(r) {
        if (r.meta.condition === 'at-most-two') {
          twoOfTwo.add(bothGolds(r));
          const g = goldsIn(r);
          oneOfOne.add(g !== null && g.tools.length === 1 && g.golds === 1);
          oneOfTwo.add(g !== null && g.tools.length === 2 && g.golds === 1);
        } else if (r.meta.condition === 'must-two') mustTwo.add(bothGolds(r));
        noVerdict.add(isNoVerdict(r.score));
        hallucinated.add(hallucinatedAny(r.score));
      },
      finish: (reading) => ({
        ...twoOfTwo.withInterval('csr_2of2'),
        ...oneOfOne.withInterval('csr_1of1'),
        ...oneOfTwo.withInterval('csr_1of2'),
        ...mustTwo.withInterval('csr_must2'),
        ...(reading.paper ? reading.counts : { ...noVerdict.withInterval('no_verdict'), ...hallucinated.withInterval('hallucinated') }),
      }),
    };
  });
}
