import type { ScoredSample } from '../task.js';
import { expectationResultsOf } from './metrics.js';

/** Cases listed by `assay show` at most; the rest are counted (`assay export` has every one). */
export const MAX_LISTED = 20;

/**
 * The cases that did not pass, for `assay show`: a heading, then one line per case — its id,
 * fail or no verdict, and each expectation that did not pass with its reason. Empty when every
 * scored case passed. Errors are left to the summary's error counts.
 */
export function notPassingNotes(rows: readonly ScoredSample[]): string[] {
  const lines: string[] = [];
  let notPassing = 0;
  for (const { sample, score } of rows) {
    if (!score || score.value === true) continue;
    notPassing++;
    if (notPassing > MAX_LISTED) continue;
    const why = expectationResultsOf(score)
      .filter((r) => r.outcome !== 'pass')
      .map((r) => `${r.expected}: ${r.outcome === 'fail' ? 'fail' : 'no verdict'} (${r.reason})`);
    lines.push(`  ${sample.id}: ${score.value === false ? 'fail' : 'no verdict'} — ${why.join('; ') || (score.explanation ?? '')}`);
  }
  if (notPassing === 0) return [];
  const more = notPassing > MAX_LISTED ? [`  … and ${notPassing - MAX_LISTED} more (every case with its expectations: assay export <run>)`] : [];
  return [`cases not passing (${notPassing}):`, ...lines, ...more];
}
