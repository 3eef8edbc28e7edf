import type { FakeAnswer, FakeChatRequestBody } from '../openai-wire.js';
import { fencedValue } from './fenced.js';

/** The model names that play each role of the groundedness demo. */
export interface GroundednessRoleNames {
  readonly answerer: string;
  readonly judge: string;
}

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]{4,}/g) ?? [];

/** An answer's sentences, each with whether every word of four letters or more in it is in the context. */
export function supportedSentences(answer: string, context: string): { readonly sentence: string; readonly supported: boolean }[] {
  const known = new Set(words(context));
  return answer
    .split(/(?<=[.!?])\s+/)
    .filter((s) => s.trim() !== '')
    .map((sentence) => ({ sentence, supported: words(sentence).every((w) => known.has(w)) }));
}

/**
 * The roles of `quality/groundedness`, scripted: the answerer answers with the first sentence of
 * the context (always grounded); the judge scores 1–5 by the share of the answer's sentences whose
 * words all appear in the context (every one: 5, none: 1), and says which are not.
 */
export function groundednessRoles(names: GroundednessRoleNames): (body: FakeChatRequestBody) => FakeAnswer {
  return (body) => {
    const prompt = String(body.messages[0]?.content ?? '');
    if (body.model === names.answerer) return { text: (/Context:\n([^.]*\.)/.exec(prompt)?.[1] ?? '').trim() };
    if (body.model !== names.judge) throw new Error(`no role is played by model ${String(body.model)}`);
    const sentences = supportedSentences(fencedValue(prompt, 'answer'), fencedValue(prompt, 'context'));
    const unsupported = sentences.filter((s) => !s.supported).map((s) => s.sentence);
    const share = sentences.length === 0 ? 1 : (sentences.length - unsupported.length) / sentences.length;
    const score = 1 + Math.round(4 * share);
    const reasoning = unsupported.length === 0 ? 'every statement is in the context' : `not in the context: ${unsupported.join(' ')}`;
    return { text: JSON.stringify({ reasoning, score }) };
  };
}
