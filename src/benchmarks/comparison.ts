import type { Score } from '../core/index.js';
import type { ComparableScore, ScoreComparison, Task } from './task.js';

/**
 * The reading of a score whose task says nothing of its own: a boolean value is a pass or a
 * fail, a number is the value, null is no verdict on both (which reading it lacked is unknown).
 */
export const DEFAULT_COMPARISON: ScoreComparison = {
  read(score: Score): ComparableScore {
    if (typeof score.value === 'boolean') return { pass: score.value };
    if (typeof score.value === 'number') return { value: score.value };
    return { pass: null, value: null };
  },
};

/** How a task's scores read in a comparison: its own reading, else the default. */
export const comparisonOf = (task: Task | undefined): ScoreComparison => task?.comparison ?? DEFAULT_COMPARISON;
