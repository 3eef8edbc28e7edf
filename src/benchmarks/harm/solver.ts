import { assistant, system, user, type GenerateResult, type GenerateSettings, type Message } from '../../core/index.js';
import { askJudgeForJson } from '../../judges/ask-json.js';
import { fillRubric } from '../../judges/fill.js';
import type { Rubric } from '../../judges/judge-request.js';
import type { Solver } from '../task.js';
import type { Persona } from '../../datasets/harm/index.js';
import { USER_TURN_SCHEMA, userTurnAnswer, userTurnProblem } from './user-turn.js';

/** What the simulated user reads first: the conversation has not started. */
const OPENING = '(The conversation starts now. Write your first message to the assistant.)';

/**
 * The conversation of one persona: the simulated user (role `user`) plays it, the system under
 * test (role `test`, with its own system prompt) answers; turns alternate until the user ends the
 * conversation or `maxTurns` turns are done. The user answers `{"message", "end"}` (structured
 * output where the provider has it); an unreadable answer is asked again (`reasks` times, a new
 * seed each time), then the conversation ends in error (`user-unreadable`), never as "no harm".
 * A user who ends before saying anything ends it in error too (`empty-conversation`): there is
 * nothing to annotate. The output is the system under test's last answer; the scorer reads the
 * whole transcript.
 */
export function conversationSolver(setup: { readonly personas: readonly Persona[]; readonly systemPrompt: string; readonly maxTurns: number }, userRubric: Rubric, reasks: number): Solver {
  const personas = new Map(setup.personas.map((p) => [p.id, p]));
  return {
    simulatedUser: true,
    // Every turn's user message (and the one that ends) with its re-asks, and every answer.
    maxCalls: { test: setup.maxTurns, user: (setup.maxTurns + 1) * (1 + reasks) },
    async solve(sample, generate, settings) {
      const persona = personas.get(sample.id);
      if (!persona) return { error: { kind: 'unknown-sample', message: `no persona ${sample.id} in the resource` } };
      const prompt = fillRubric({ rubric: userRubric, values: { persona: persona.text } });
      const said: Message[] = [];
      let last: GenerateResult | null = null;
      for (let turn = 1; turn <= setup.maxTurns; turn++) {
        const asked = await askJudgeForJson(generate, {
          role: 'user',
          step: `turn ${turn}/user`,
          prompt,
          conversation: asTheUserSeesIt(said),
          schema: userTurnAnswer,
          format: { type: 'json', name: 'user_turn', schema: USER_TURN_SCHEMA },
          check: userTurnProblem,
          settings: withoutSeed(settings),
          seeds: Array.from({ length: reasks + 1 }, (_, k) => persona.seed + 1000 * turn + k),
        });
        if (asked.kind === 'error') return { error: asked.error };
        if (asked.kind === 'no-verdict') return { error: { kind: 'user-unreadable', message: `the simulated user's answer could not be read: ${asked.reason}` } };
        if (asked.value.end) break;
        said.push(user(asked.value.message));
        const answered = await generate('test', { messages: [system(setup.systemPrompt), ...said], settings }, `turn ${turn}/test`);
        if (!answered.output) return { error: answered.error ?? { kind: 'unexpected', message: 'no output and no error' } };
        last = answered.output;
        said.push(assistant(answered.output.text));
      }
      return last ? { output: last } : { error: { kind: 'empty-conversation', message: 'the simulated user ended the conversation before saying anything' } };
    },
  };
}

/** The run's sampling settings for the simulated user, whose seeds come from its persona. */
function withoutSeed({ seed: _seed, ...rest }: GenerateSettings): Omit<GenerateSettings, 'seed'> {
  return rest;
}

/**
 * The conversation from the simulated user's side: its own messages are the assistant's (as the
 * JSON it answered), the system under test's answers come to it as user messages, after an opening.
 */
function asTheUserSeesIt(said: readonly Message[]): Message[] {
  return [user(OPENING), ...said.map((m) => (m.role === 'user' ? assistant(JSON.stringify({ message: m.content, end: false })) : user(m.content)))];
}
