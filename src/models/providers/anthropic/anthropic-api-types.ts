/**
 * Wire types of the Anthropic Messages API (`POST /v1/messages`), limited to the fields assay
 * sends or reads. Response types are loose (everything optional or `unknown`): the parser
 * checks every field it reads.
 */

export interface AnthropicRequestBody {
  model: string;
  /** Required by the API (there is no server default). */
  max_tokens: number;
  messages: AnthropicMessage[];
  /** The system prompt is a top-level field, not a message role. */
  system?: string;
  tools?: AnthropicTool[];
  tool_choice?: { type: 'tool'; name: string } | { type: 'auto' } | { type: 'any' };
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  /** Always a JSON object on the wire. */
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
}

export type AnthropicMessage =
  | { role: 'user'; content: string | (AnthropicToolResultBlock | AnthropicTextBlock)[] }
  | { role: 'assistant'; content: string | (AnthropicTextBlock | AnthropicToolUseBlock)[] };

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Readonly<Record<string, unknown>>;
}

/** A Messages response as it may arrive: nothing is trusted until checked. */
export interface AnthropicResponse {
  id?: unknown;
  type?: unknown;
  role?: unknown;
  model?: unknown;
  content?: unknown;
  stop_reason?: unknown;
  stop_sequence?: unknown;
  usage?: unknown;
}

export interface AnthropicUsage {
  input_tokens?: unknown;
  output_tokens?: unknown;
  /** Prompt tokens written to / read from the prompt cache: input tokens too, billed at other rates. */
  cache_creation_input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
}

/** `{"type":"error","error":{"type":"rate_limit_error","message":"…"},"request_id":"…"}` */
export interface AnthropicErrorBody {
  type?: unknown;
  error?: { type?: unknown; message?: unknown; details?: unknown };
  request_id?: unknown;
}
