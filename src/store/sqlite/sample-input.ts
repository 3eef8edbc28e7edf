import { canonicalJson, contentPartsOf, withFields, type Message, type SharedText } from '../../core/index.js';

/**
 * How a sample's messages are stored. A message made from parts (`composedUserMessage`) is
 * written as `{"role":"user","contentParts":[…]}`: its literal parts as strings, its shared parts
 * as numbers that index the run's texts (table `run_texts`), each shared text written once per
 * run. A MetaTool prompt is ~2.3 KB, nearly all of it template and tool lines that every sample
 * repeats: this keeps a sample row to a few hundred bytes, which is most of the cost of storing
 * 10,000 samples before the first call. Reading joins the parts back, so what comes out is the
 * exact text that was sent. Any other message is stored as its JSON.
 */

/**
 * How a call's request whose messages are the sample's input (`CallRecord.messagesFromSample`) is
 * stored: its `messages` is this marker instead of a copy of the prompt (the samples row holds
 * it); reading a call expands it back (`rows.ts`).
 */
export const SAMPLE_INPUT_REF = '$sample.input';

/**
 * The `calls.request` column of a call. One whose messages are the sample's is written in
 * canonical JSON (sorted keys), as assay has always written it: stored rows stay byte for byte
 * what they were (test/e2e/functionchat-judge-identity.test.ts holds them to fingerprints).
 */
export function requestToJson(request: unknown, messagesFromSample: boolean | undefined): string | null {
  if (messagesFromSample !== true) return request === undefined ? null : JSON.stringify(request);
  // Once per call: `withFields`, not `{ ...request, messages }` (see `with-fields.ts`). The keys are sorted anyway.
  return canonicalJson(withFields(request as object, { messages: SAMPLE_INPUT_REF }));
}

/** The shared texts of one run met while storing its samples, numbered in order of first use. */
export class RunTexts {
  private readonly ids = new Map<SharedText, number>();
  /** Texts numbered since the last `takeNew`, to be inserted with the samples that use them. */
  private fresh: { id: number; text: string }[] = [];

  /** `nextId`: the first free number (above those another session stored for the run). */
  constructor(private nextId = 0) {}

  idOf(text: SharedText): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(text, id);
      this.fresh.push({ id, text: text.shared });
    }
    return id;
  }

  takeNew(): { id: number; text: string }[] {
    const taken = this.fresh;
    this.fresh = [];
    return taken;
  }
}

/**
 * The `samples.input` column for a sample's messages. A composed message is written part by part
 * into the one string: the text `JSON.stringify({ role, contentParts })` gives, without building
 * that object and its array first (once per sample stored).
 */
export function inputToJson(input: readonly Message[], texts: RunTexts): string {
  let json = '[';
  for (let i = 0; i < input.length; i++) {
    const message = input[i] as Message;
    if (i > 0) json += ',';
    const parts = contentPartsOf(message);
    if (!parts) {
      json += JSON.stringify(message);
      continue;
    }
    json += `{"role":${JSON.stringify(message.role)},"contentParts":[`;
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k];
      if (k > 0) json += ',';
      json += typeof part === 'string' ? JSON.stringify(part) : String(texts.idOf(part as SharedText));
    }
    json += ']}';
  }
  return `${json}]`;
}

/**
 * The messages of a `samples.input` column, composed ones joined back from `texts` (the run's
 * texts by number). A part naming a text the run does not have means a damaged store: it throws
 * rather than return a prompt that was never sent.
 */
export function inputFromJson(json: string, texts: readonly string[], where: string): Message[] {
  const messages = JSON.parse(json) as (Message | { role: Message['role']; contentParts: (string | number)[] })[];
  return messages.map((message) => {
    if (!('contentParts' in message)) return message;
    let content = '';
    for (const part of message.contentParts) {
      if (typeof part === 'string') content += part;
      else {
        const text = texts[part];
        if (text === undefined) throw new Error(`${where}: the stored prompt refers to text #${part}, which the run does not have (damaged store?)`);
        content += text;
      }
    }
    return { role: message.role, content } as Message;
  });
}
