import type { FinishReason } from '../../../core/index.js';

/** Maps the wire `finish_reason` to the unified reason; the caller keeps the raw value beside it. */
export function mapOpenAIFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
