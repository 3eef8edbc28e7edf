import { usageOf, InputError, toolCallFromRaw, type FinishReason, type GenerateResult, type ToolCall, type Usage } from '../../../core/index.js';

/** One validated line of a replay file. */
export interface ReplayEntry {
  readonly id: string;
  readonly result: GenerateResult;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** OpenAI `finish_reason` values; anything else is kept raw as 'other'. */
const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  content_filter: 'content-filter',
};

/**
 * Validates and converts one non-blank line of a replay file. `where` is `file:line`, put in
 * front of every error so the user can go straight to the bad line.
 *
 * Accepted shape: `{"id": "<sample id>", "output": "<text>"}` or `{"id", "message": {content,
 * tool_calls: [{id, type, function: {name, arguments}}]}}` (an OpenAI assistant message), plus
 * optional `usage: {prompt_tokens, completion_tokens}`, `model` and `finish_reason`.
 */
export function parseReplayLine(text: string, where: { file: string; line: number }): ReplayEntry {
  const fail = (problem: string): never => {
    throw new InputError(`${where.file}:${where.line}: ${problem}`, where);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) return fail('expected a JSON object like {"id": "<sample id>", "output": "<text>"}');
  const { id, output, message } = value;
  if (typeof id !== 'string' || id === '') return fail('"id" must be a non-empty string (the sample id)');
  if (output === undefined && message === undefined) return fail(`line for "${id}" has neither "output" (text) nor "message" (assistant message)`);
  if (output !== undefined && message !== undefined) return fail(`line for "${id}" has both "output" and "message"; expected one`);

  let content = '';
  let toolCalls: ToolCall[] = [];
  if (output !== undefined) {
    if (typeof output !== 'string') return fail(`"output" of "${id}" must be a string`);
    content = output;
  } else {
    if (!isObject(message)) return fail(`"message" of "${id}" must be an object (an assistant message)`);
    if (message.content !== undefined && message.content !== null && typeof message.content !== 'string') {
      return fail(`"message.content" of "${id}" must be a string or null`);
    }
    content = message.content ?? '';
    toolCalls = parseToolCalls(message.tool_calls, id, fail);
  }

  const result: GenerateResult = {
    text: content,
    toolCalls,
    finishReason: parseFinishReason(value.finish_reason, toolCalls.length > 0, id, fail),
    usage: parseUsage(value.usage, id, fail),
    warnings: [],
    rawResponse: value,
    ...(value.model === undefined ? {} : { responseModel: typeof value.model === 'string' ? value.model : fail(`"model" of "${id}" must be a string`) }),
  };
  return { id, result };
}

function parseToolCalls(raw: unknown, id: string, fail: (problem: string) => never): ToolCall[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return fail(`"message.tool_calls" of "${id}" must be an array`);
  return raw.map((call: unknown, index) => {
    const at = `"message.tool_calls[${index}]" of "${id}"`;
    if (!isObject(call) || !isObject(call.function)) return fail(`${at} must be an object with "function": {"name", "arguments"}`);
    const { name, arguments: args } = call.function;
    if (typeof name !== 'string' || name === '') return fail(`${at}: "function.name" must be a non-empty string`);
    if (call.id !== undefined && typeof call.id !== 'string') return fail(`${at}: "id" must be a string`);
    // The wire format has arguments as a JSON string; a recorder that stored the parsed object is
    // accepted too. Malformed strings are kept as data (toolCallFromRaw records the parse error).
    const rawArguments = args === undefined || args === null ? '' : typeof args === 'string' ? args : JSON.stringify(args);
    return toolCallFromRaw(call.id ?? `call_${index}`, name, rawArguments);
  });
}

function parseUsage(raw: unknown, id: string, fail: (problem: string) => never): Usage {
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) return fail(`"usage" of "${id}" must be an object like {"prompt_tokens": 12, "completion_tokens": 3}`);
  const count = (key: string): number | undefined => {
    const n = raw[key];
    if (n === undefined || n === null) return undefined;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return fail(`"usage.${key}" of "${id}" must be a non-negative integer`);
    return n;
  };
  const inputTokens = count('prompt_tokens');
  const outputTokens = count('completion_tokens');
  return usageOf(inputTokens, outputTokens);
}

function parseFinishReason(raw: unknown, hasToolCalls: boolean, id: string, fail: (problem: string) => never): GenerateResult['finishReason'] {
  if (raw === undefined || raw === null) return { unified: hasToolCalls ? 'tool-calls' : 'stop' };
  if (typeof raw !== 'string') return fail(`"finish_reason" of "${id}" must be a string`);
  return { unified: FINISH_REASONS[raw] ?? 'other', raw };
}
