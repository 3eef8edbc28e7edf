import type { GenerateRequest, GenerateSettings, Message, ResponseFormat } from '../../core/index.js';

/** A tool as the chat-completions API writes it: the shape most applications already take. */
export interface OpenAIShapedTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Readonly<Record<string, unknown>> };
}

/**
 * What an application target is given for one call: the variables of an `http` target's body
 * template, and the one object a `module` target's function and an `exec` target's stdin receive.
 * Snake case where a name has two words, as in the templates people write.
 */
export interface TargetRequest {
  /** The declared name of the target (its model id). */
  readonly model: string;
  /** The canonical messages (`core/messages.ts`): `role`, `content`, and `toolCalls` / `toolCallId` where they apply. */
  readonly messages: readonly Message[];
  /** The text of the last user message; null when there is none. */
  readonly prompt: string | null;
  /** The system messages' text (joined by a blank line when several); null when there is none. */
  readonly system: string | null;
  /** The tools offered, in the chat-completions function shape; empty when none. */
  readonly tools: readonly OpenAIShapedTool[];
  /** Stable for every call of one sample (every turn of one conversation), different across samples and runs. */
  readonly session: string;
  /** The sample this call belongs to; null for a call made outside a run. */
  readonly sample_id: string | null;
  /** The run's sampling settings (`temperature`, `maxTokens`…), for a target that passes them on. */
  readonly settings: GenerateSettings;
  /** The JSON answer asked for (a judge, the simulated user), or null for free text. */
  readonly response_format: ResponseFormat | null;
}

/** The last user message's text, or null. */
function lastUserText(messages: readonly Message[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role === 'user') return message.content;
  }
  return null;
}

/** The system messages' text, or null when there is none. */
function systemText(messages: readonly Message[]): string | null {
  let text: string | null = null;
  for (const message of messages) if (message.role === 'system') text = text === null ? message.content : `${text}\n\n${message.content}`;
  return text;
}

/** The fields a target receives for `request`, made as the session and sample ids say. */
export function buildTargetRequest(model: string, request: GenerateRequest, session: string, sampleId: string | undefined): TargetRequest {
  const { messages } = request;
  return {
    model,
    messages,
    prompt: lastUserText(messages),
    system: systemText(messages),
    tools: (request.tools ?? []).map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    session,
    sample_id: sampleId ?? null,
    settings: request.settings,
    response_format: request.responseFormat ?? null,
  };
}
