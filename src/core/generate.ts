import type { Message } from './messages.js';
import type { ReferenceHints } from './reference-hints.js';
import type { ToolCall, ToolSpec } from './tools.js';

/** Sampling settings a run asks for; a provider that cannot honour one records a warning. */
export interface GenerateSettings {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  readonly seed?: number;
  readonly stop?: readonly string[];
}

/** Structured output: the model must answer with JSON matching `schema` (a JSON Schema object). */
export interface ResponseFormat {
  readonly type: 'json';
  /** A short identifier for the schema (OpenAI's `json_schema.name`). */
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface GenerateRequest {
  readonly messages: readonly Message[];
  readonly tools?: readonly ToolSpec[];
  /** Ask for structured output; a provider that cannot honour it records an `unsupported` warning. */
  readonly responseFormat?: ResponseFormat;
  readonly settings: GenerateSettings;
  /** The structured question a reference (non-LLM) model reads instead of the prompt; never sent to a real one. */
  readonly hints?: ReferenceHints;
}

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface Usage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

/**
 * Usage with the counts that were reported (undefined: not reported, left out), input first.
 * Written case by case rather than as two conditional spreads: a literal that opens with a spread
 * costs every object a map of its own on Node 20 (see `with-fields.ts`), and usage is made for
 * every call and read back for every result.
 */
export function usageOf(inputTokens: number | undefined, outputTokens: number | undefined): Usage {
  if (inputTokens !== undefined && outputTokens !== undefined) return { inputTokens, outputTokens };
  if (inputTokens !== undefined) return { inputTokens };
  if (outputTokens !== undefined) return { outputTokens };
  return {};
}

export interface Warning {
  readonly type: 'unsupported' | 'compatibility' | 'other';
  readonly feature: string;
  readonly details?: string;
}

/** What one successful model call returned, normalized, with the raw wire values kept beside. */
export interface GenerateResult {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: { readonly unified: FinishReason; readonly raw?: string };
  readonly usage: Usage;
  readonly warnings: readonly Warning[];
  /** Provider response body (or the recorded line, for replay). */
  readonly rawResponse?: unknown;
  /** Model name the provider reports having used, when it differs from the one asked for. */
  readonly responseModel?: string;
}
