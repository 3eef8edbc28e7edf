import type { GenerateRequest } from '../../core/index.js';

/**
 * A cheap guess of a request's input tokens: four characters a token, over the messages and the
 * tool definitions. Used where no tokenizer is at hand and a rough figure will do: the
 * tokens-per-minute limiter, and `assay run --estimate`.
 */
export function approxInputTokens(request: Pick<GenerateRequest, 'messages' | 'tools'>): number {
  let chars = 0;
  for (const message of request.messages) chars += message.content.length;
  if (request.tools && request.tools.length > 0) chars += JSON.stringify(request.tools).length;
  return Math.ceil(chars / 4);
}
