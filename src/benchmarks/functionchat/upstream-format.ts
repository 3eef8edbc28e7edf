import type { Message, ToolCall, ToolSpec } from '../../core/index.js';
import { pythonJsonDumps, type GroundTruth } from '../../datasets/functionchat/index.js';
import type { FunctionChatMeta } from './metadata.js';

/**
 * The texts FunctionChat-Bench puts into its rubric placeholders, rebuilt from a sample and an
 * output: Python `json.dumps(…, ensure_ascii=False)` of the OpenAI-shaped objects upstream holds
 * (upstream `EvaluationHandler.get_input_prompt`). Keys are written in upstream's order.
 */

/** `{tools}`: the offered tools as OpenAI function tools. */
export function upstreamTools(tools: readonly ToolSpec[]): string {
  return pythonJsonDumps(tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })));
}

function openAiHistoryCall(call: ToolCall): unknown {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.rawArguments } };
}

/** A message as the data files (and so upstream's request) write it. */
function openAiMessage(message: Message): unknown {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      // The files write a tool-call turn's content as null; assay's Message holds "".
      return message.toolCalls && message.toolCalls.length > 0
        ? { role: 'assistant', content: message.content === '' ? null : message.content, tool_calls: message.toolCalls.map(openAiHistoryCall) }
        : { role: 'assistant', content: message.content };
    case 'tool':
      return message.name === undefined
        ? { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
        : { role: 'tool', tool_call_id: message.toolCallId, name: message.name, content: message.content };
  }
}

/** `{query}`: the whole conversation sent to the model, system prompt included. */
export function upstreamMessages(messages: readonly Message[]): string {
  return pythonJsonDumps(messages.map(openAiMessage));
}

/**
 * `{ground_truth}`. Single-call ground truths are `{name, arguments}`; dialog and call-decision
 * ones are assistant messages whose tool call loses its `id` before the judge sees it. The
 * v2.0.0 code also sets `tool_calls` on every ground truth (null when there is none); the
 * paper-era code only replaced an existing one.
 */
export function upstreamGroundTruth(truth: GroundTruth, meta: Pick<FunctionChatMeta, 'task' | 'bench_version'>): string {
  const addsToolCalls = meta.bench_version !== 'paper-2024-09';
  if (truth.kind === 'call' && meta.task === 'singlecall') {
    return pythonJsonDumps(addsToolCalls ? { name: truth.name, arguments: truth.rawArguments, tool_calls: null } : { name: truth.name, arguments: truth.rawArguments });
  }
  if (truth.kind === 'call') {
    return pythonJsonDumps({ role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: truth.name, arguments: truth.rawArguments } }] });
  }
  return pythonJsonDumps(addsToolCalls ? { role: truth.role, content: truth.content, tool_calls: null } : { role: truth.role, content: truth.content });
}

/** `{acceptable_arguments}` (call rubric only): the request's string, JSON-encoded once more, or `null`. */
export const upstreamAcceptableArguments = (text: string | null): string => pythonJsonDumps(text);

/**
 * `{response}`: the model's answer as the assistant message upstream stored
 * (`ChatCompletionMessage.model_dump()` with each tool call's `id` removed): content (null when
 * empty beside tool calls), role, function_call (always null), tool_calls (null when none; each
 * `{function: {arguments, name}, type}` with the arguments exactly as the model wrote them).
 */
export function upstreamResponse(output: { readonly text: string; readonly toolCalls: readonly Pick<ToolCall, 'name' | 'rawArguments'>[] }): string {
  const calls = output.toolCalls.map((c) => ({ function: { arguments: c.rawArguments, name: c.name }, type: 'function' }));
  return pythonJsonDumps({
    content: output.text === '' && calls.length > 0 ? null : output.text,
    role: 'assistant',
    function_call: null,
    tool_calls: calls.length > 0 ? calls : null,
  });
}
