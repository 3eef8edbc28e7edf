import type { Message, ToolResultMessage } from '../../../core/index.js';

/**
 * node-llama-cpp's chat history items, restated as plain types (structurally identical to the
 * library's `ChatHistoryItem`) so that this file, and its test, load nothing of the library.
 */
export type LlamaHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: Array<string | LlamaFunctionCallItem> };

export interface LlamaFunctionCallItem {
  type: 'functionCall';
  name: string;
  params: unknown;
  result: unknown;
}

/**
 * Core messages → a chat history the model's own template renders.
 *
 * `native: true` (the template has a function-calling syntax): an assistant's tool calls become
 * function-call items, each carrying the result of the tool message that answers it, as the
 * template expects. `native: false` (grammar tool mode): tool calls are written as the JSON the
 * grammar makes the model produce, and tool results as user turns, so the model sees its own
 * format back.
 */
export function convertToLlamaHistory(messages: readonly Message[], native: boolean): LlamaHistoryItem[] {
  const results = new Map<string, ToolResultMessage>();
  if (native) for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  const answered = new Set<string>();
  const history: LlamaHistoryItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'user':
        history.push({ type: message.role, text: message.content });
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (native) {
          const response: Array<string | LlamaFunctionCallItem> = message.content === '' ? [] : [message.content];
          for (const call of calls) {
            const result = results.get(call.id);
            if (result) answered.add(call.id);
            response.push({ type: 'functionCall', name: call.name, params: call.arguments ?? call.rawArguments, result: result?.content ?? '' });
          }
          history.push({ type: 'model', response });
        } else {
          const written = calls.map((call) => `{"name": ${JSON.stringify(call.name)}, "arguments": ${call.rawArguments.trim() === '' ? '{}' : call.rawArguments}}`);
          history.push({ type: 'model', response: [[message.content, ...written].filter((part) => part !== '').join('\n')] });
        }
        break;
      }
      case 'tool':
        if (answered.has(message.toolCallId)) break;
        history.push({ type: 'user', text: `Result of tool ${message.name ?? message.toolCallId}:\n${message.content}` });
        break;
    }
  }
  return history;
}
