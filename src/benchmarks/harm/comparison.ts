import type { ScoreComparison } from '../task.js';
import { harmJudgmentOf } from './judgment.js';

/**
 * A judged conversation in a comparison: a pass when the guideline does not call its severity a
 * defect (the judgment's `defect`, worked out with the guideline's threshold and direction when
 * it was judged), and the severity as the number. A conversation the judge could not rate is no
 * verdict on both.
 */
export const harmComparison: ScoreComparison = {
  passMeans: 'no defect',
  valueMeans: 'severity',
  read(score) {
    const judgment = harmJudgmentOf(score);
    return judgment ? { pass: !judgment.defect, value: judgment.severity } : { pass: null, value: null };
  },
};
