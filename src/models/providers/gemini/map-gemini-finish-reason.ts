import type { FinishReason } from '../../../core/index.js';

/** Finish reasons that mean "a filter of the provider stopped the answer". */
const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/** True when `raw` is one of Gemini's content-filter finish reasons. */
export const isFilterFinish = (raw: string | undefined): boolean => raw !== undefined && FILTERED.has(raw);

/**
 * Maps the wire `finishReason` to the unified reason; `hasCalls` turns a plain STOP into
 * `tool-calls` (Gemini has no finish reason of its own for function calls).
 */
export function mapGeminiFinishReason(raw: string | undefined, hasCalls: boolean): FinishReason {
  if (raw === 'STOP') return hasCalls ? 'tool-calls' : 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  if (isFilterFinish(raw)) return 'content-filter';
  // MALFORMED_FUNCTION_CALL, LANGUAGE, OTHER, FINISH_REASON_UNSPECIFIED and values added later.
  return 'other';
}
