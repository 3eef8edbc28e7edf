import type { FinishReason } from '../../../core/index.js';

/**
 * node-llama-cpp's `stopReason` → the unified finish reason. A grammar ends generation through a
 * "stop generation trigger" when the JSON is complete, which is a normal stop; a grammar-mode tool
 * call is reported as `tool-calls` like a native one.
 */
export function mapLlamaStopReason(stopReason: string, madeToolCalls: boolean): FinishReason {
  switch (stopReason) {
    case 'functionCalls':
      return 'tool-calls';
    case 'maxTokens':
      return 'length';
    case 'eogToken':
    case 'stopGenerationTrigger':
    case 'customStopTrigger':
      return madeToolCalls ? 'tool-calls' : 'stop';
    case 'abort':
      return 'error';
    default:
      return 'other';
  }
}
