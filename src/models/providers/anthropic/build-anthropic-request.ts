import type { GenerateRequest, Warning } from '../../../core/index.js';
import type { AnthropicRequestBody } from './anthropic-api-types.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/** `max_tokens` is required by the Messages API; this is sent when the run sets none. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 1024;

export interface AnthropicRequest {
  readonly body: AnthropicRequestBody;
  /** What the request could not express natively; copied into the result's warnings. */
  readonly warnings: readonly Warning[];
  /** The tool that carries a structured answer, when `responseFormat` was sent as a forced tool. */
  readonly responseTool?: string;
}

/** Tool names must match `^[a-zA-Z0-9_-]{1,64}$`. */
const toolName = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'respond';

/**
 * The Messages body for one request. `hints` are never sent. `seed` has no Messages API
 * equivalent: it is dropped with an `unsupported` warning (so runs stay comparable across
 * providers, the setting is not an error).
 *
 * Structured output: the Messages API has no JSON-schema response format, so a `responseFormat`
 * becomes a forced tool (`tool_choice: {type:'tool'}`) whose `input_schema` is the schema — the
 * API then answers with exactly one `tool_use` whose input matches it, and the parser turns that
 * input back into the JSON text the caller asked for. When the request also offers its own tools,
 * forcing one would stop the model from calling the others: then `responseFormat` is dropped with
 * a warning and the prompt's own instructions are all the model gets.
 */
export function buildAnthropicRequest(model: string, request: GenerateRequest): AnthropicRequest {
  const { settings } = request;
  const prompt = convertToAnthropicMessages(request.messages);
  const warnings: Warning[] = [...prompt.warnings];
  const body: AnthropicRequestBody = { model, max_tokens: settings.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS, messages: prompt.messages };
  if (prompt.system !== undefined) body.system = prompt.system;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.stop !== undefined && settings.stop.length > 0) body.stop_sequences = [...settings.stop];
  if (settings.seed !== undefined) warnings.push({ type: 'unsupported', feature: 'seed', details: 'the Anthropic Messages API has no seed; sampling is not reproducible' });

  let responseTool: string | undefined;
  if (request.responseFormat) {
    const { name, schema } = request.responseFormat;
    if (body.tools) {
      warnings.push({ type: 'unsupported', feature: 'response-format', details: 'structured output is sent as a forced tool, which cannot be combined with the request’s own tools; dropped' });
    } else if (schema.type !== 'object') {
      warnings.push({ type: 'unsupported', feature: 'response-format', details: 'a forced tool’s input_schema must be an object schema; dropped' });
    } else {
      responseTool = toolName(name);
      body.tools = [{ name: responseTool, description: `Give the answer as JSON matching this schema (${name}).`, input_schema: schema }];
      body.tool_choice = { type: 'tool', name: responseTool };
      warnings.push({ type: 'compatibility', feature: 'response-format', details: `sent as the forced tool "${responseTool}"; its input is returned as the text` });
    }
  }
  return responseTool === undefined ? { body, warnings } : { body, warnings, responseTool };
}
