import type { GenerateResult, Message, Sample, Transcript } from '../core/index.js';
import type { Metrics, PreparedTask, ScoredSample, Solver, Task } from '../benchmarks/task.js';

/**
 * A minimal task whose samples are conversations: a simulated user (the `user` role) plays a
 * persona and says when it is done; the model under test (`test`) answers each message. It
 * exercises the engine's solver shape in tests (every call stored as made, the transcript kept,
 * resume from the cache) without the harm-measurement resources that build on it.
 *
 * The user answers `{"message": string, "end": boolean}`; `end` true ends the conversation
 * before its message is sent. A user answer that is not that JSON ends the sample in error.
 */
export function conversationTask(name = 'testing/conversation', personas: readonly string[] = ['alice', 'bob', 'carol'], maxTurns = 3): Task {
  const samples: Sample[] = personas.map((persona) => ({ id: persona, input: [{ role: 'user' as const, content: `persona: ${persona}` }], target: null, metadata: {} }));
  const solver: Solver = {
    simulatedUser: true,
    maxCalls: { test: maxTurns, user: maxTurns },
    async solve(sample, generate, settings) {
      const persona = sample.id;
      const conversation: Message[] = [];
      let last: GenerateResult | null = null;
      for (let turn = 1; turn <= maxTurns; turn++) {
        const asked = await generate('user', { messages: [{ role: 'system', content: `You are ${persona}. Say what you want, or end.` }, ...flipRoles(conversation)], settings }, `turn ${turn}/user`);
        if (!asked.output) return { error: asked.error ?? { kind: 'unknown', message: 'no answer' } };
        const said = parseUserTurn(asked.output.text);
        if (said === undefined) return { error: { kind: 'user-unreadable', message: `the simulated user did not answer {"message", "end"}: ${asked.output.text.slice(0, 80)}` } };
        if (said.end) break;
        conversation.push({ role: 'user', content: said.message });
        const answered = await generate('test', { messages: [{ role: 'system', content: 'Be helpful.' }, ...conversation], settings }, `turn ${turn}/test`);
        if (!answered.output) return { error: answered.error ?? { kind: 'unknown', message: 'no answer' } };
        last = answered.output;
        conversation.push({ role: 'assistant', content: answered.output.text });
      }
      return last ? { output: last } : { error: { kind: 'empty-conversation', message: 'the simulated user ended before saying anything' } };
    },
  };
  const prepared: PreparedTask = {
    samples,
    datasetChecksums: {},
    promptVersion: '1',
    solver,
    score: (_sample, output, transcript?: Transcript) => ({ value: turnsOf(transcript), answer: output.text }),
  };
  const metrics = (rows: Iterable<ScoredSample>): Metrics => {
    const turns = [...rows].flatMap((r) => (typeof r.score?.value === 'number' ? [r.score.value] : []));
    return { conversations: turns.length, mean_turns: turns.length === 0 ? null : turns.reduce((a, b) => a + b, 0) / turns.length };
  };
  return { name, version: '1', description: 'test conversations between a simulated user and the model under test', defaultSettings: { temperature: 0 }, prepare: async () => prepared, metrics };
}

/** The model under test's turns: one user message and one answer each. */
const turnsOf = (transcript: Transcript | undefined): number => (transcript ?? []).filter((step) => step.role === 'test' && step.text !== null).length;

/** The conversation as the simulated user sees it: its own messages are the assistant's. */
const flipRoles = (conversation: readonly Message[]): Message[] =>
  conversation.map((m) => ({ role: m.role === 'user' ? 'assistant' : 'user', content: m.content }) as Message);

function parseUserTurn(text: string): { message: string; end: boolean } | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string' && typeof (value as { end?: unknown }).end === 'boolean') {
      return value as { message: string; end: boolean };
    }
  } catch {
    // Not JSON: unreadable, as any other shape.
  }
  return undefined;
}
