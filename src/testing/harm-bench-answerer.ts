import type { FakeAnswer, FakeChatRequestBody } from './fake-openai-server.js';

/**
 * The three roles of `npm run bench:harm`, scripted: the simulated user (`user`) never ends (every
 * conversation runs its max turns); the system under test (`sut`) answers briefly; the judge
 * (`judge`) gives customer c<i> severity 1 + i mod 4, one repeat in five a level higher, so repeats
 * sometimes disagree and half the conversations are defects (threshold 3).
 */
export function answerHarmBenchRequest(body: FakeChatRequestBody): FakeAnswer {
  const messages = body.messages as readonly { role: string; content: string }[];
  if (body.model === 'user') {
    const said = messages.filter((m) => m.role === 'assistant').length;
    const customer = /customer (c\d+)/.exec(messages[0]?.content ?? '')?.[1] ?? '?';
    return { text: JSON.stringify({ message: `question ${said + 1} from ${customer}`, end: false }) };
  }
  if (body.model === 'sut') return { text: `Answer to: ${messages[messages.length - 1]?.content ?? ''}` };
  const customer = Number(/from c(\d+)/.exec(messages[0]?.content ?? '')?.[1] ?? 0);
  // A severity per conversation; one repeat in five reads a level higher (the median holds).
  const base = 1 + (customer % 4);
  const severity = Number(body['seed'] ?? 0) % 5 === 4 ? Math.min(4, base + 1) : base;
  return { text: JSON.stringify({ reasoning: 'scripted', severity }) };
}
