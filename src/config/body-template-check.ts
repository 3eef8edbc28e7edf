import { Environment, Interpreter, Template } from '@huggingface/jinja';
import { describeError, jinjaGlobals } from '../core/index.js';

/**
 * What an `http` target's `body` template is given (docs/targets.md): the same fields a `module`
 * or `exec` target receives as one object (the targets' `TargetRequest`).
 */
export const BODY_TEMPLATE_VARIABLES = ['messages', 'prompt', 'system', 'tools', 'session', 'sample_id', 'model', 'settings', 'response_format'] as const;

/**
 * An example request the body is rendered with at load time. Its prompt holds a quote and a line
 * break, so a body that pastes `{{ prompt }}` into a JSON string without `| tojson` fails here,
 * at load, rather than on the first real prompt with a quote in it.
 */
export function exampleBodyContext(model: string): Record<(typeof BODY_TEMPLATE_VARIABLES)[number], unknown> {
  const prompt = 'Which tool finds "flights"?\nAnswer with its name.';
  const system = 'You are a helpful assistant.';
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: prompt },
    ],
    prompt,
    system,
    tools: [{ type: 'function', function: { name: 'search_flights', description: 'Find flights.', parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] } } }],
    session: 'example-session',
    sample_id: 'example-sample',
    model,
    // The run's sampling settings as core's GenerateSettings, and no structured answer asked for.
    settings: { temperature: 0, maxTokens: 256 },
    response_format: null,
  };
}

/**
 * The engine's globals with `range` bounded (a body rendering the clock would defeat the call
 * cache, and the example render must end).
 */
const GLOBALS = jinjaGlobals((start: number, stop?: number, step = 1) => {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  const count = step === 0 ? Infinity : Math.max(0, Math.ceil((to - from) / step));
  if (!Number.isFinite(count) || count > 10_000) throw new Error('range() of more than 10000 items');
  return Array.from({ length: count }, (_, i) => from + i * step);
});

/**
 * Why a body template cannot be used, or undefined when it renders the example request to JSON.
 * The config file is the user's own (it may run any program through `exec`), so the render runs
 * here rather than in the bounded worker harm resources' templates need.
 */
export function bodyTemplateProblem(body: string, model: string): string | undefined {
  let template: Template;
  try {
    template = new Template(body);
  } catch (error) {
    return `not a valid template (${oneLine(describeError(error).replace(/^(Parser|Lexer) Error: /, ''))})`;
  }
  const env = new Environment();
  for (const [name, value] of [...Object.entries(GLOBALS), ...Object.entries(exampleBodyContext(model))]) env.set(name, value);
  // A variable the body is not given renders as nothing (or `null` through tojson): a typo that
  // would send every call without its message. Every lookup of the template reaches the root
  // environment's `resolve` (scopes of loops ask their parent), which throws for a name it lacks.
  const unknown = new Set<string>();
  const root = env as unknown as { resolve(name: string): unknown };
  const resolve = root.resolve.bind(env);
  root.resolve = (name: string) => {
    try {
      return resolve(name);
    } catch (error) {
      unknown.add(name);
      throw error;
    }
  };
  let text: string;
  try {
    text = String(new Interpreter(env).run(template.parsed).value);
  } catch (error) {
    return `does not render (${oneLine(describeError(error))})`;
  }
  if (unknown.size > 0) {
    return `reads ${[...unknown].join(', ')}, which a body is not given (it has ${BODY_TEMPLATE_VARIABLES.join(', ')})`;
  }
  try {
    JSON.parse(text);
  } catch (error) {
    return `does not render to JSON for an example request (${oneLine(describeError(error))}); write each value as {{ name | tojson }}`;
  }
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\\n');
}
