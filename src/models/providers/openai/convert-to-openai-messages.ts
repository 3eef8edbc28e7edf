import type { Message } from '../../../core/index.js';
import type { OpenAIChatMessage } from './openai-api-types.js';

/**
 * Translates core messages to chat-completions messages. Assistant tool calls are sent with
 * their `rawArguments` (not re-serialized `arguments`) so that a conversation replays exactly
 * what the model wrote, malformed calls included.
 */
export function convertToOpenAIMessages(messages: readonly Message[]): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = new Array<OpenAIChatMessage>(messages.length);
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    switch (message.role) {
      case 'system':
      case 'user':
        out[i] = { role: message.role, content: message.content };
        break;
      case 'assistant':
        out[i] =
          message.toolCalls && message.toolCalls.length > 0
            ? {
                role: 'assistant',
                // A string even when empty: some compatible servers reject `content: null`.
                content: message.content,
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.rawArguments },
                })),
              }
            : { role: 'assistant', content: message.content };
        break;
      case 'tool':
        // `name` is not part of the chat-completions tool message; the call id links the result.
        out[i] = { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
        break;
    }
  }
  return out;
}
