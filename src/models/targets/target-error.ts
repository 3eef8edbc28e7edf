import { ModelCallError } from '../../core/index.js';
import { oneLine } from '../http/call-errors.js';

/** Longest reason a target error carries: enough to see what went wrong, short enough for a report's line. */
export const MAX_TARGET_REASON = 300;

/**
 * The error of an application target that gave no usable answer (kind `target`, not retried: a
 * script that exits 1 or an answer without the reply field does so again). `reason` is made one
 * line, redacted of the target's secrets and cut to {@link MAX_TARGET_REASON} characters; the
 * middleware redacts it again of every secret of the run.
 */
export function targetError(name: string, reason: string, redact: (text: string) => string): ModelCallError {
  return new ModelCallError('target', `${name}: ${oneLine(redact(reason), MAX_TARGET_REASON)}`);
}

/** A short excerpt of a text an error quotes (an answer, stderr). */
export const excerpt = (text: string, max = 200): string => oneLine(text, max);
