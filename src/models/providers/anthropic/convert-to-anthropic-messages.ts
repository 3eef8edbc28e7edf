import type { Message, ToolCall, Warning } from '../../../core/index.js';
import type { AnthropicMessage, AnthropicTextBlock, AnthropicToolResultBlock, AnthropicToolUseBlock } from './anthropic-api-types.js';

export interface AnthropicPrompt {
  /** All system messages, joined by a blank line; undefined when there are none. */
  readonly system: string | undefined;
  readonly messages: AnthropicMessage[];
  readonly warnings: Warning[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A `tool_use` block's `input` must be an object. A call whose arguments did not parse (or are
 * not an object) cannot be replayed as written, so it is sent with `{}` and a warning: the
 * conversation still goes on, and the record says what was lost.
 */
function toolUseBlock(call: ToolCall, warnings: Warning[]): AnthropicToolUseBlock {
  if (isPlainObject(call.arguments)) return { type: 'tool_use', id: call.id, name: call.name, input: call.arguments };
  warnings.push({
    type: 'compatibility',
    feature: 'tool-call-arguments',
    details: `tool call ${call.id} (${call.name}) has arguments that are not a JSON object; sent as {} (was: ${call.rawArguments.slice(0, 200)})`,
  });
  return { type: 'tool_use', id: call.id, name: call.name, input: {} };
}

/**
 * Core messages → Messages API. The API has no system role: system messages become the
 * top-level `system` (a warning when one comes after the conversation started, since its
 * position is lost). Assistant tool calls become `tool_use` blocks after the text; tool results
 * become `tool_result` blocks of a user message, consecutive results merged into one message
 * (the API wants all results of one assistant turn in the next user turn). Empty assistant text
 * is left out when there are tool calls: the API rejects empty text blocks.
 */
export function convertToAnthropicMessages(input: readonly Message[]): AnthropicPrompt {
  const systemParts: string[] = [];
  const messages: AnthropicMessage[] = [];
  const warnings: Warning[] = [];
  /** The tool_result blocks of the user message being built, when the last message is one. */
  let openResults: (AnthropicToolResultBlock | AnthropicTextBlock)[] | undefined;
  for (const message of input) {
    switch (message.role) {
      case 'system':
        if (messages.length > 0) {
          warnings.push({ type: 'compatibility', feature: 'system-message-position', details: 'a system message inside the conversation was moved to the top-level system prompt' });
        }
        systemParts.push(message.content);
        break;
      case 'user':
        openResults = undefined;
        messages.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        openResults = undefined;
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          messages.push({ role: 'assistant', content: message.content });
          break;
        }
        const blocks: (AnthropicTextBlock | AnthropicToolUseBlock)[] = message.content !== '' ? [{ type: 'text', text: message.content }] : [];
        for (const call of calls) blocks.push(toolUseBlock(call, warnings));
        messages.push({ role: 'assistant', content: blocks });
        break;
      }
      case 'tool': {
        const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content };
        if (openResults) {
          openResults.push(block);
        } else {
          openResults = [block];
          messages.push({ role: 'user', content: openResults });
        }
        break;
      }
    }
  }
  return { system: systemParts.length > 0 ? systemParts.join('\n\n') : undefined, messages, warnings };
}
