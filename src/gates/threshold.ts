import type { Interval } from '../metrics/intervals.js';
import { formatFigure, formatInterval } from './format-figure.js';
import type { GateOutcome, IntervalRelation } from './gate-result.js';

/** A threshold gate as the config declares it (`MetricGate` of config/, structurally). */
export interface ThresholdGate {
  readonly min?: number;
  readonly max?: number;
  readonly require?: 'confident' | 'non-inferior';
}

export interface ThresholdDecision {
  readonly outcome: GateOutcome;
  readonly relation: IntervalRelation;
  readonly reason: string;
}

/** The gate in words: `min 95.0%`, `max 0.05, confident`, `between 50.0% and 99.0%`. */
export function describeThreshold(gate: ThresholdGate, unit?: string): string {
  const bounds = gate.min !== undefined && gate.max !== undefined
    ? `between ${formatFigure(gate.min, unit)} and ${formatFigure(gate.max, unit)}`
    : gate.min !== undefined
      ? `min ${formatFigure(gate.min, unit)}`
      : gate.max !== undefined
        ? `max ${formatFigure(gate.max, unit)}`
        : 'no threshold';
  return gate.require === 'confident' ? `${bounds}, confident` : bounds;
}

/**
 * Decides a threshold gate on a metric's point estimate and its 95% interval (docs/suites.md):
 * - no value → inconclusive (never pass or fail);
 * - `min`/`max` alone decide on the point estimate (inclusive: 0.95 passes `min: 0.95`); the
 *   relation says whether the interval clears the threshold or straddles it;
 * - `require: confident`: a point that misses → fail; a point that passes with the whole
 *   interval inside → pass; a point that passes with an interval across the threshold, or no
 *   interval at all → inconclusive (the data cannot say it clears).
 */
export function decideThreshold(value: number | null, interval: Interval | null, gate: ThresholdGate, unit?: string): ThresholdDecision {
  if (value === null || !Number.isFinite(value)) return { outcome: 'inconclusive', relation: 'none', reason: 'no value: no sample was decided (errors or no verdicts only), so the gate cannot be checked' };
  const inside = (x: number): boolean => (gate.min === undefined || x >= gate.min) && (gate.max === undefined || x <= gate.max);
  const pointPasses = inside(value);
  const relation = intervalRelation(interval, gate);
  const point = `${formatFigure(value, unit)} ${pointPasses ? 'meets' : 'misses'} ${describeThreshold({ ...gate, require: undefined }, unit)}`;
  const span = interval === null ? 'no interval' : `95% interval ${formatInterval(interval, unit)} ${relationWords(relation)}`;
  if (!pointPasses) return { outcome: 'fail', relation, reason: `${point}; ${span}` };
  if (gate.require !== 'confident' || relation === 'clears') return { outcome: 'pass', relation, reason: `${point}; ${span}` };
  return { outcome: 'inconclusive', relation, reason: `${point} but ${interval === null ? 'there is no interval to be confident with' : `the 95% interval ${formatInterval(interval, unit)} ${relationWords(relation)}`} (require: confident)` };
}

function intervalRelation(interval: Interval | null, gate: ThresholdGate): IntervalRelation {
  if (interval === null) return 'none';
  const clearsMin = gate.min === undefined || interval.low >= gate.min;
  const clearsMax = gate.max === undefined || interval.high <= gate.max;
  if (clearsMin && clearsMax) return 'clears';
  const missesMin = gate.min !== undefined && interval.high < gate.min;
  const missesMax = gate.max !== undefined && interval.low > gate.max;
  return missesMin || missesMax ? 'misses' : 'straddles';
}

function relationWords(relation: IntervalRelation): string {
  if (relation === 'clears') return 'clears it';
  if (relation === 'straddles') return 'straddles it';
  if (relation === 'misses') return 'lies wholly outside it';
  return '';
}
