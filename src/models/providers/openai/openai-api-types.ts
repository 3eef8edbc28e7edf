/**
 * Wire types of the OpenAI chat-completions API, limited to the fields assay sends or reads.
 * Response types are deliberately loose (everything optional, `unknown` where servers differ):
 * OpenAI-compatible servers (vLLM, llama.cpp, Ollama, proxies) each omit or reshape some fields,
 * and the response parser checks every field it reads.
 */

export interface OpenAIChatRequestBody {
  model: string;
  messages: OpenAIChatMessage[];
  tools?: OpenAIFunctionTool[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  seed?: number;
  stop?: string[];
  response_format?: OpenAIResponseFormat;
}

/** Structured output: the answer must be JSON matching `schema` (`strict` makes the server enforce it). */
export interface OpenAIResponseFormat {
  type: 'json_schema';
  json_schema: { name: string; schema: Readonly<Record<string, unknown>>; strict: boolean };
}

export type OpenAIChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: OpenAIMessageToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAIMessageToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAIFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Readonly<Record<string, unknown>> };
}

/** A chat-completions response as it may arrive: nothing is trusted until checked. */
export interface OpenAIChatResponse {
  id?: unknown;
  model?: unknown;
  choices?: unknown;
  usage?: unknown;
}

export interface OpenAIResponseChoice {
  index?: unknown;
  message?: unknown;
  finish_reason?: unknown;
}

export interface OpenAIResponseMessage {
  role?: unknown;
  /** A string, null (tool-call-only answers) or, on some servers, an array of content parts. */
  content?: unknown;
  refusal?: unknown;
  tool_calls?: unknown;
  /** Legacy single function call (pre-`tools` API), still emitted by a few compatible servers. */
  function_call?: unknown;
}

export interface OpenAIUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
}

/** The error envelope OpenAI (and most compatible servers) return with 4xx/5xx statuses. */
export interface OpenAIErrorBody {
  error?: { message?: unknown; type?: unknown; code?: unknown } | string;
  message?: unknown;
}
