import type { UserMessage } from './messages.js';

/**
 * A stretch of prompt text that many samples share: a template's fixed text, one tool's line in a
 * candidate list. It is made once and referenced by every prompt that shows it, so that a store
 * can keep it once per run instead of once per sample. Identity matters (stores key on the
 * object): make each shared stretch once and reuse it.
 */
export interface SharedText {
  readonly shared: string;
}

export const sharedText = (text: string): SharedText => Object.freeze({ shared: text });

/** A text as the pieces it is made of, in order: literal strings (a sample's own) and shared stretches. */
export type TextParts = readonly (string | SharedText)[];

/** The text the parts make. */
export function joinTextParts(parts: TextParts): string {
  let text = '';
  for (const part of parts) text += typeof part === 'string' ? part : part.shared;
  return text;
}

/** Where a composed message keeps how to make its parts. A symbol, and not enumerable: not copied by `{...message}`, not serialized, not hashed. */
const CONTENT_PARTS = Symbol('assay.contentParts');

/**
 * A user message whose content is made from its parts each time it is read rather than kept.
 * A rendered MetaTool prompt is ~2.5 KB, mostly shared text (template, tool lines), and a run
 * holds all of its samples: keeping only the parts keeps memory flat as runs grow, and lets the
 * store write the shared stretches once per run. The content is the parts joined, by
 * construction, so what is stored from the parts is exactly what was sent.
 */
export function composedUserMessage(parts: () => TextParts): UserMessage {
  // The getter is one function for every message (it reads the parts from the message), not a
  // closure per message as an object literal's `get content()` would be: V8 gives an object with
  // a getter of its own a hidden class of its own, allocated old, which held the closure — and so
  // the sample's prompt — until the next full GC (~45% of the bytes a MetaTool run promoted with
  // the samples' blocks: docs/benchmarks.md, issue 29, branch `promote`). Same properties, same
  // order, same attributes as the literal had, frozen.
  const message = { role: 'user' as const };
  Object.defineProperty(message, 'content', { get: composedContent, enumerable: true, configurable: true });
  Object.defineProperty(message, CONTENT_PARTS, { value: parts, enumerable: false });
  return Object.freeze(message) as UserMessage;
}

/** The `content` getter of every composed message: its parts, joined. */
function composedContent(this: { readonly [CONTENT_PARTS]: () => TextParts }): string {
  return joinTextParts(this[CONTENT_PARTS]());
}

/**
 * What a `plainMessage` copy of a composed message keeps, hidden: the parts, the content joined
 * from them, and — once a reader wrote it — the content's JSON (`composedContentJson`), so that a
 * call's cache key and its request body escape the prompt once between them.
 */
interface ComposedCopy {
  readonly parts: TextParts;
  readonly content: string;
  json?: string;
}

const COMPOSED_COPY = Symbol('assay.composedCopy');

/**
 * A plain copy of a message, its content read once. The copy of a message made by
 * `composedUserMessage` keeps (hidden, like the original) the parts its content was joined from,
 * so that `canonicalJson` (the call cache key) writes the shared stretches from their cached JSON
 * instead of escaping the whole prompt again for every call.
 */
export function plainMessage<M extends object>(message: M): M {
  const make = (message as { [CONTENT_PARTS]?: () => TextParts })[CONTENT_PARTS];
  if (make === undefined) return { ...message };
  const parts = make();
  const content = joinTextParts(parts);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(message)) copy[key] = key === 'content' ? content : (message as Record<string, unknown>)[key];
  const composed: ComposedCopy = { parts, content };
  Object.defineProperty(copy, COMPOSED_COPY, { value: composed, enumerable: false });
  return copy as M;
}

/**
 * The parts of a message made by `composedUserMessage`, or of a `plainMessage` copy of one whose
 * content is still the text joined from them; undefined for any other message.
 */
export function contentPartsOf(message: object): TextParts | undefined {
  const copy = composedCopyOf(message);
  if (copy !== undefined) return copy.parts;
  const parts = (message as { [CONTENT_PARTS]?: () => TextParts })[CONTENT_PARTS];
  return parts?.();
}

/**
 * The hidden record of a `plainMessage` copy of a composed message, if its content was not
 * replaced since it was copied (then the parts no longer say what it holds); undefined otherwise.
 */
export function composedCopyOf(message: object): ComposedCopy | undefined {
  const copy = (message as { [COMPOSED_COPY]?: ComposedCopy })[COMPOSED_COPY];
  return copy !== undefined && (message as { content?: unknown }).content === copy.content ? copy : undefined;
}
