import { describeError, type GenerateResult, type Sample, type Score, type Transcript } from '../core/index.js';
import type { PreparedTask } from './task.js';

/** Scores an output; a scorer that throws gives a no-verdict with the reason, never a crash. */
export function scoreSafely(prepared: PreparedTask, sample: Sample, output: GenerateResult, transcript?: Transcript): Score {
  try {
    return prepared.score(sample, output, transcript);
  } catch (error) {
    // A scorer bug must not crash the run nor pass silently: the sample gets no verdict, with the reason.
    return { value: null, explanation: `scorer failed: ${describeError(error)}` };
  }
}
