import type { FakeAnswer, FakeChatRequestBody } from '../openai-wire.js';
import { fencedValue } from './fenced.js';

export { fencedValue } from './fenced.js';

/**
 * A deterministic stand-in for the summarizers and the judge of `summaries/alignment`, the brain of
 * `assay demo summaries/alignment` and of the summaries benchmark's loopback server (`npm run
 * bench:summaries`):
 * - a model under test (any model but `judge`) answers the first sentence of the article's body
 *   (the text after its title line), plus the false sentence {@link TRAP_SENTENCE} for some
 *   articles (chosen by the article's length, differently per model);
 * - the judge is recognised by its step's `response_format.json_schema.name`: `claims` splits the
 *   summary into its sentences; `verdicts` labels a claim `no` when it is the trap sentence, `yes`
 *   when the article holds it word for word, else `idk`; `questions` asks whether the article
 *   mentions each of its first k long words (k read from the prompt's "Write exactly k
 *   questions."); `answers` says `yes` when the text holds the question's word, else `idk`.
 * Every judge answer has the shape its step asks for, so every summary is judged.
 */
export const TRAP_SENTENCE = 'The figures were later revised to nine million.';

const lastUserText = (body: FakeChatRequestBody): string => {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i];
    if (message?.role === 'user') return typeof message.content === 'string' ? message.content : '';
  }
  return '';
};

/** The first sentence of an article's body (a BBC article is a title line, a blank line, then the body). */
export function firstSentence(article: string): string {
  const trimmed = article.trim();
  const newline = trimmed.indexOf('\n');
  const body = newline === -1 ? trimmed : trimmed.slice(newline + 1).trim();
  const text = body === '' ? trimmed : body;
  const match = /^[^\n]*?[.!?](?=\s|$)/.exec(text);
  return match ? match[0] : `${(text.split('\n')[0] ?? '').trim()}.`;
}

/** Whether `model` adds the false sentence to its summary of `article`: writer-b more often than the others. */
const trapped = (model: string, article: string): boolean => article.length % (model.endsWith('-b') ? 4 : 7) === 0;

/** The summary a model under test writes for a summaries prompt (the instruction, a blank line, the article). */
export function summaryFor(model: string, prompt: string): string {
  const blank = prompt.indexOf('\n\n');
  const article = blank === -1 ? prompt : prompt.slice(blank + 2);
  const first = firstSentence(article);
  return trapped(model, article) ? `${first} ${TRAP_SENTENCE}` : first;
}

/** The judge's answer to one step, by its JSON schema's name. */
export function judgeStepAnswer(step: string | undefined, prompt: string): string {
  switch (step) {
    case 'claims':
      return JSON.stringify({ claims: fencedValue(prompt, 'summary').split(/(?<=[.!?]) /).filter((s) => s.trim() !== '') });
    case 'verdicts': {
      const article = fencedValue(prompt, 'article');
      const claims = JSON.parse(fencedValue(prompt, 'claims')) as string[];
      return JSON.stringify({
        verdicts: claims.map((c) =>
          c === TRAP_SENTENCE ? { verdict: 'no', reason: 'the article gives no such figure' } : article.includes(c) ? { verdict: 'yes', reason: 'stated in the article' } : { verdict: 'idk', reason: 'not in the article' },
        ),
      });
    }
    case 'questions': {
      const k = Number(/Write exactly (\d+) questions\./.exec(prompt)?.[1] ?? 5);
      const words = [...new Set(fencedValue(prompt, 'article').match(/[A-Za-z]{7,}/g) ?? [])];
      return JSON.stringify({ questions: Array.from({ length: k }, (_, i) => `Does the text mention "${words[i] ?? 'a title'}"?`) });
    }
    case 'answers': {
      const text = fencedValue(prompt, 'text');
      const questions = JSON.parse(fencedValue(prompt, 'questions')) as string[];
      return JSON.stringify({ answers: questions.map((q) => (text.includes(/"(.*)"/.exec(q)?.[1] ?? '\u0000') ? 'yes' : 'idk')) });
    }
    default:
      throw new Error(`unexpected judge call (format ${String(step)})`);
  }
}

/** The server's answer to any request of the summaries benchmark: the judge's step, or a model's summary. */
export function answerSummariesRequest(body: FakeChatRequestBody): FakeAnswer {
  const prompt = lastUserText(body);
  if (body.model === 'judge') {
    const step = (body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
    return { text: judgeStepAnswer(step, prompt) };
  }
  return { text: summaryFor(String(body.model), prompt) };
}
