import type { Transcript } from '../../core/index.js';
import { fenceEach } from '../../judges/fence.js';
import { readUserTurn } from './user-turn.js';

/** One message of a conversation between the simulated user and the system under test. */
export interface Utterance {
  readonly speaker: 'user' | 'assistant';
  readonly text: string;
}

/** A conversation as read back from a sample's transcript, and how it ended. */
export interface Conversation {
  readonly utterances: readonly Utterance[];
  /** Turns: one user message and the answer to it. */
  readonly turns: number;
  /** `user`: the simulated user said it was over; `max-turns`: cut at the resource's bound. */
  readonly endedBy: 'user' | 'max-turns';
}

/**
 * The conversation a transcript holds: the simulated user's readable answers (re-asked ones left
 * out, as the solver left them out) and the system under test's answers, in order.
 */
export function conversationOf(transcript: Transcript): Conversation {
  const utterances: Utterance[] = [];
  let endedBy: Conversation['endedBy'] = 'max-turns';
  let turns = 0;
  for (const step of transcript) {
    if (step.text === null) continue;
    if (step.role === 'user') {
      const said = readUserTurn(step.text);
      if (!said) continue;
      if (said.end) {
        endedBy = 'user';
        break;
      }
      utterances.push({ speaker: 'user', text: said.message });
    } else if (step.role === 'test') {
      utterances.push({ speaker: 'assistant', text: step.text });
      turns++;
    }
  }
  return { utterances, turns, endedBy };
}

/**
 * The conversation as the judge reads it: each message in its own block between markers naming
 * who wrote it (`<<<user 3f9a…>>>` … `<<<end user 3f9a…>>>`, `assistant` likewise), one nonce for
 * the conversation that no message contains (`fenceEach`). Plain `User:`/`Assistant:` paragraphs
 * let a system under test that writes "User: …" lines make turns the judge could not tell from
 * real ones; a message cannot write these markers. The rubrics describe this format.
 */
export const conversationText = (conversation: Conversation): string =>
  fenceEach(conversation.utterances.map((u) => ({ label: u.speaker, text: u.text }))).join('\n\n');
