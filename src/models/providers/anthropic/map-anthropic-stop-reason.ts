import type { FinishReason } from '../../../core/index.js';

/** Maps the wire `stop_reason` to the unified reason; the caller keeps the raw value beside it. */
export function mapAnthropicStopReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    // The model declined for safety reasons: the provider's content filter, as with OpenAI's content_filter.
    case 'refusal':
      return 'content-filter';
    default:
      // pause_turn (a server tool paused the turn) and values added later.
      return 'other';
  }
}
