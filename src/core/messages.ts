import type { ToolCall } from './tools.js';

/** The one message shape every provider translates to and from. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string;
  /** Tool calls the assistant made in this turn, including malformed ones (kept as data). */
  readonly toolCalls?: readonly ToolCall[];
}

export interface ToolResultMessage {
  readonly role: 'tool';
  /** The id of the assistant tool call this message answers. */
  readonly toolCallId: string;
  readonly name?: string;
  readonly content: string;
}

export const system = (content: string): SystemMessage => ({ role: 'system', content });
export const user = (content: string): UserMessage => ({ role: 'user', content });
export const assistant = (content: string, toolCalls?: readonly ToolCall[]): AssistantMessage =>
  toolCalls && toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content };
