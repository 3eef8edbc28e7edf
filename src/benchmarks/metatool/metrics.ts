import { isNoVerdict, type Score } from '../../core/index.js';
import { isManualAnalysis } from './scoring.js';
import { binaryClassification } from '../../metrics/classification.js';
import { rateBy, ratio, shareWithInterval } from '../../metrics/rates.js';
import type { Metrics, ScoredSample } from '../task.js';
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
 */

interface Scored<M> {
  readonly meta: M;
  readonly score: Score;
  /** A human reviewer's verdict (`ScoredSample.review`); the score's value holds it too. */
  readonly review?: boolean;
}

function scoredRows<M>(rows: Iterable<ScoredSample>, read: (row: ScoredSample) => M): Scored<M>[] {
  const out: Scored<M>[] = [];
  for (const row of rows) if (row.score !== undefined) out.push({ meta: read(row), score: row.score, ...(row.review !== undefined ? { review: row.review } : {}) });
  return out;
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

const share = <T>(rows: readonly T[], hit: (row: T) => boolean): number | null => ratio(rows.filter(hit).length, rows.length);

/** A share under `name` with its Wilson 95% interval under `<name>_ci95` (the share's own rows and hits). */
const shareCi = <T>(name: string, rows: readonly T[], hit: (row: T) => boolean): Metrics => shareWithInterval(name, rows.filter(hit).length, rows.length);

/**
 * How the scores were read. Paper: the rows the metrics are over (the decided ones) and the two
 * counts reported beside them; strict: every scored row.
 */
function readingOf<M>(scored: readonly Scored<M>[]): { readonly rows: readonly Scored<M>[]; readonly counts: Metrics; readonly paper: boolean } {
  if (!scored.some((r) => isPaperScore(r.score))) return { rows: scored, counts: {}, paper: false };
  const decided = scored.filter((r) => !isManualAnalysis(r.score));
  return { rows: decided, counts: { manual: scored.length - decided.length, decided: decided.length }, paper: true };
}

/**
 * `accuracy, precision, recall, f1, no_verdict` with "needs a tool" as the positive class, and the
 * `confusion` counts they come from (`tp`, `fp`, `tn`, `fn`; `no_verdict` apart, never in a cell).
 */
export function awarenessMetrics(rows: Iterable<ScoredSample>): Metrics {
  const reading = readingOf(scoredRows(rows, (r) => awarenessMeta(r.sample)));
  const m = binaryClassification(
    reading.rows.map(({ meta, score, review }) => ({
      // A reviewed answer is right (pass) or wrong (fail) against the label: the yes or no that makes it so.
      predicted: review !== undefined ? review === meta.needsTool : score.answer === 'yes' ? true : score.answer === 'no' ? false : null,
      actual: meta.needsTool,
    })),
  );
  const { total, tp, fp, tn, fn, no_verdict } = m.counts;
  // Each share with its Wilson interval over its own denominator (as binaryClassification's): F1 is not a share of anything, so it has none.
  const positives = reading.rows.filter((r) => r.meta.needsTool).length;
  const rates = { ...shareWithInterval('accuracy', tp + tn, total), ...shareWithInterval('precision', tp, tp + fp), ...shareWithInterval('recall', tp, positives), f1: m.f1 };
  const confusion = { tp, fp, tn, fn, no_verdict };
  return reading.paper ? { ...rates, ...reading.counts, confusion } : { ...rates, ...shareWithInterval('no_verdict', no_verdict, total), confusion };
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

/**
 * Single-tool selection metrics: `csr` (correct / scored), `no_verdict`, `hallucinated` (share of
 * scored samples whose answer named a tool not shown), plus the breakdowns asked for.
 *
 * `topK` (the paper's Top@k error analysis): among wrong answers that selected exactly one tool
 * other than the gold — abstentions and no-verdicts excluded — the share whose tool is among the
 * gold's k nearest *other* tools (`metadata.nearest`).
 */
export function singleSelectionMetrics(rows: Iterable<ScoredSample>, breakdowns: SingleSelectionBreakdowns): Metrics {
  const reading = readingOf(scoredRows(rows, (r) => selectionMeta(r.sample)));
  const scored = reading.rows;
  const correct = (r: Scored<SelectionMeta>): boolean => r.score.value === true;
  const metrics: Record<string, Metrics[string]> = reading.paper
    ? { ...shareCi('csr', scored, correct), ...reading.counts }
    : { ...shareCi('csr', scored, correct), ...shareCi('no_verdict', scored, (r) => isNoVerdict(r.score)), ...shareCi('hallucinated', scored, (r) => hallucinatedAny(r.score)) };
  if (breakdowns.byPosition) {
    metrics.csr_by_position = rateBy(scored, (r) => (r.meta.goldPositions[0] === undefined ? undefined : String(r.meta.goldPositions[0])), correct);
  }
  if (breakdowns.byScenario) metrics.csr_by_scenario = rateBy(scored, (r) => r.meta.scenario, correct);
  if (breakdowns.topK) {
    const wrongSingles = scored.flatMap(({ meta, score, review }) => {
      const tools = answeredTools(score);
      const gold = meta.gold[0];
      // An answer a reviewer passed is not a wrong one.
      return review !== true && tools?.length === 1 && gold !== undefined && tools[0] !== gold ? [{ chosen: tools[0] as string, nearest: meta.nearest ?? [] }] : [];
    });
    for (const k of [1, 3, 5]) metrics[`top${k}`] = share(wrongSingles, (w) => w.nearest.slice(0, k).includes(w.chosen));
  }
  return metrics;
}

/**
 * Multi-tool metrics. Over scored "at most two" samples: `csr_2of2` (the selection is both golds),
 * `csr_1of1` (one tool, a gold), `csr_1of2` (two tools, exactly one a gold). Over scored
 * "must choose two" samples: `csr_must2` (both golds). Over all scored samples: `no_verdict`,
 * `hallucinated`.
 */
export function multiSelectionMetrics(rows: Iterable<ScoredSample>): Metrics {
  const reading = readingOf(scoredRows(rows, (r) => selectionMeta(r.sample)));
  const scored = reading.rows;
  const atMostTwo = scored.filter((r) => r.meta.condition === 'at-most-two');
  const mustTwo = scored.filter((r) => r.meta.condition === 'must-two');
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
  return {
    ...shareCi('csr_2of2', atMostTwo, bothGolds),
    ...shareCi('csr_1of1', atMostTwo, (r) => {
      const g = goldsIn(r);
      return g !== null && g.tools.length === 1 && g.golds === 1;
    }),
    ...shareCi('csr_1of2', atMostTwo, (r) => {
      const g = goldsIn(r);
      return g !== null && g.tools.length === 2 && g.golds === 1;
    }),
    ...shareCi('csr_must2', mustTwo, bothGolds),
    ...(reading.paper
      ? reading.counts
      : { ...shareCi('no_verdict', scored, (r) => isNoVerdict(r.score)), ...shareCi('hallucinated', scored, (r) => hallucinatedAny(r.score)) }),
  };
}
