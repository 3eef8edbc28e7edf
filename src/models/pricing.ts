import type { Usage } from '../core/index.js';

import type { Price } from '../core/engine-settings.js';

/** USD per million tokens (declared with the engine settings, whose `prices` hold them). */
export type { Price };

/**
 * List prices of a few common hosted models (USD per 1M tokens, as published by the vendor in
 * 2025). Prices change: a run can override them (`--price model=in/out`), and a model with no
 * known price gets cost `null` (unknown), never 0.
 */
export const KNOWN_PRICES: Readonly<Record<string, Price>> = {
  'openai:gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'openai:gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'openai:gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'openai:gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'openai:gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'openai:gpt-4-turbo': { inputPerMillion: 10, outputPerMillion: 30 },
  'openai:gpt-3.5-turbo': { inputPerMillion: 0.5, outputPerMillion: 1.5 },
};

/** Cost of one call, or null when the price or the token counts are unknown. */
export function costOf(price: Price | undefined, usage: Usage): number | null {
  if (!price || usage.inputTokens === undefined || usage.outputTokens === undefined) return null;
  return (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1e6;
}
