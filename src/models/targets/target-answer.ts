import { withFields, usageOf, isJsonObject, toolCallFromRaw, type GenerateResult, type ToolCall, type Usage } from '../../core/index.js';

/**
 * Reading what a target answered into a `GenerateResult`. The functions return a problem as text
 * (the caller makes it a `target` error with its own name and secrets) rather than throwing.
 */
export type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const problem = (text: string): Read<never> => ({ ok: false, problem: text });

/**
 * Tool calls as an application writes them: `[{name, arguments}]`, `arguments` an object or JSON
 * text (kept as data when it does not parse, like a model's malformed call), an optional `id`.
 * The chat-completions `{function: {name, arguments}}` shape is read too, so `toolCalls` can point
 * at an OpenAI-compatible answer's `tool_calls`. Null or missing is no calls.
 */
export function readToolCalls(value: unknown): Read<ToolCall[]> {
  if (value === null || value === undefined) return ok([]);
  if (!Array.isArray(value)) return problem(`toolCalls must be a list of {name, arguments}, found ${describeJson(value)}`);
  const calls: ToolCall[] = [];
  for (const [index, item] of value.entries()) {
    const call = isJsonObject(item) && isJsonObject(item.function) ? withFields(item.function, { id: item.id }) : item;
    if (!isJsonObject(call) || typeof call.name !== 'string' || call.name === '') return problem(`toolCalls[${index}] must be an object with a "name" text, found ${describeJson(item)}`);
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index}`;
    const args = call.arguments;
    if (typeof args === 'string') calls.push(toolCallFromRaw(id, call.name, args));
    else if (args === undefined || args === null) calls.push(toolCallFromRaw(id, call.name, '{}'));
    else calls.push({ id, name: call.name, arguments: args, rawArguments: JSON.stringify(args) });
  }
  return ok(calls);
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/**
 * Token counts when the answer has them — `{inputTokens, outputTokens}`, or the chat-completions
 * `{prompt_tokens, completion_tokens}` — else none: the middleware then reports the cost as
 * unknown (null), never as 0.
 */
export function readUsage(value: unknown): Usage {
  if (!isJsonObject(value)) return {};
  const inputTokens = count(value.inputTokens) ?? count(value.prompt_tokens) ?? count(value.input_tokens);
  const outputTokens = count(value.outputTokens) ?? count(value.completion_tokens) ?? count(value.output_tokens);
  return usageOf(inputTokens, outputTokens);
}

/**
 * The reply text from what `output` found: text as it is, a number or a boolean written out.
 * Nothing found is a problem unless the answer made tool calls (an answer that only calls tools
 * has no text, as a model's does not). An object or a list is a problem: `output` must point at
 * the reply itself.
 */
export function readText(value: unknown, hasToolCalls: boolean, what: string): Read<string> {
  if (typeof value === 'string') return ok(value);
  if (typeof value === 'number' || typeof value === 'boolean') return ok(String(value));
  if (value === null || value === undefined) return hasToolCalls ? ok('') : problem(`${what} found nothing`);
  return problem(`${what} found ${describeJson(value)}, not the reply text`);
}

/** The result of an answer read into its parts. */
export function targetResult(text: string, toolCalls: readonly ToolCall[], usage: Usage, rawResponse: unknown): GenerateResult {
  const unified = toolCalls.length > 0 ? 'tool-calls' : 'stop';
  return { text, toolCalls, finishReason: { unified }, usage, warnings: [], rawResponse };
}

/**
 * The answer of a `module` or `exec` target: `{ text, toolCalls?, usage? }`. `text` may be left
 * out (or null) only when there are tool calls.
 */
export function readTargetAnswer(answer: unknown): Read<GenerateResult> {
  if (!isJsonObject(answer)) return problem(`the answer must be an object {text, toolCalls?, usage?}, found ${describeJson(answer)}`);
  const calls = readToolCalls(answer.toolCalls);
  if (!calls.ok) return calls;
  const text = readText(answer.text, calls.value.length > 0, 'the answer\'s "text"');
  if (!text.ok) return text;
  return ok(targetResult(text.value, calls.value, readUsage(answer.usage), answer));
}

/** A value described in a few words for a message: its type, and the start of its JSON. */
export function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  const kind = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  const text = JSON.stringify(value) ?? String(value);
  return `${kind} (${text.length > 80 ? `${text.slice(0, 79)}…` : text})`;
}
