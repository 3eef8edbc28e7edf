import type { Message, ToolCall, Warning } from '../../../core/index.js';
import type { GeminiContent, GeminiPart } from './gemini-api-types.js';

export interface GeminiPrompt {
  readonly systemInstruction: { parts: { text: string }[] } | undefined;
  readonly contents: GeminiContent[];
  readonly warnings: Warning[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `functionCall.args` must be an object; a malformed call is sent with `{}` and a warning (see the Anthropic twin). */
function functionCallPart(call: ToolCall, warnings: Warning[]): GeminiPart {
  if (isPlainObject(call.arguments)) return { functionCall: { name: call.name, args: call.arguments } };
  warnings.push({
    type: 'compatibility',
    feature: 'tool-call-arguments',
    details: `tool call ${call.id} (${call.name}) has arguments that are not a JSON object; sent as {} (was: ${call.rawArguments.slice(0, 200)})`,
  });
  return { functionCall: { name: call.name, args: {} } };
}

/**
 * Core messages → Gemini `contents`. System messages become `systemInstruction` (one text part
 * each, a warning when one comes mid-conversation); the assistant is role `model`, its tool calls
 * `functionCall` parts after its text. A tool result becomes a `functionResponse` part of a user
 * turn, consecutive results merged into one turn (Gemini wants as many responses in the turn after
 * a call turn as there were calls). Gemini links a response to its call by function *name*, so the
 * name is taken from the message or looked up by call id; the result text is sent as
 * `response: {name, content}` (Gemini's `response` must be an object).
 */
export function convertToGeminiContents(messages: readonly Message[]): GeminiPrompt {
  const system: { text: string }[] = [];
  const contents: GeminiContent[] = [];
  const warnings: Warning[] = [];
  const nameOfCall = new Map<string, string>();
  let openResponses: GeminiPart[] | undefined;
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (contents.length > 0) {
          warnings.push({ type: 'compatibility', feature: 'system-message-position', details: 'a system message inside the conversation was moved to systemInstruction' });
        }
        system.push({ text: message.content });
        break;
      case 'user':
        openResponses = undefined;
        contents.push({ role: 'user', parts: [{ text: message.content }] });
        break;
      case 'assistant': {
        openResponses = undefined;
        const calls = message.toolCalls ?? [];
        const parts: GeminiPart[] = message.content !== '' || calls.length === 0 ? [{ text: message.content }] : [];
        for (const call of calls) {
          nameOfCall.set(call.id, call.name);
          parts.push(functionCallPart(call, warnings));
        }
        contents.push({ role: 'model', parts });
        break;
      }
      case 'tool': {
        const name = message.name ?? nameOfCall.get(message.toolCallId);
        if (name === undefined) {
          warnings.push({ type: 'compatibility', feature: 'tool-result-name', details: `tool result for call ${message.toolCallId} names no function and answers no earlier call; sent with an empty name` });
        }
        const part: GeminiPart = { functionResponse: { name: name ?? '', response: { name: name ?? '', content: message.content } } };
        if (openResponses) {
          openResponses.push(part);
        } else {
          openResponses = [part];
          contents.push({ role: 'user', parts: openResponses });
        }
        break;
      }
    }
  }
  return { systemInstruction: system.length > 0 ? { parts: system } : undefined, contents, warnings };
}
