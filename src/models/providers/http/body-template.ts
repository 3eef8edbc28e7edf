import { Environment, Interpreter, Template } from '@huggingface/jinja';
import { describeError, InputError, jinjaGlobals } from '../../../core/index.js';
import type { TargetRequest } from '../../targets/target-request.js';
import { compileJsonSplice } from './json-splice.js';

/** The variables that make a body differ per sample: a template reading one is a stateful app's. */
const PER_SAMPLE_VARIABLES = new Set(['session', 'sample_id']);

export interface CompileBodyOptions {
  /** The declared name, the example request's `model`. */
  readonly model: string;
  /** The body passed `bodyTemplateProblem` already (a config file's, checked at load): not checked again. */
  readonly checked?: boolean;
}

export interface BodyTemplate {
  /**
   * The request body for one call.
   * @throws Error when the template fails on this request or renders text that is not JSON.
   */
  render(variables: TargetRequest): string;
  /** Whether the template reads `session` or `sample_id`: its app keeps state per conversation. */
  readonly perSample: boolean;
}

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
 * Why a body template cannot be used, or undefined when it renders the example request to JSON
 * and reads only the variables a body is given: the one check of a body, which the config loader
 * runs at load (`loadConfig(…, { checkBodyTemplate })`, so the message names file:line) and
 * `compileBodyTemplate` runs for a body nobody checked. The config file is the user's own (it may
 * run any program through `exec`), so the render runs here rather than in the bounded worker harm
 * resources' templates need.
 */
export function bodyTemplateProblem(body: string, model: string): string | undefined {
  const parsed = parseTemplate(body);
  return typeof parsed === 'string' ? parsed : checkTemplate(parsed, model);
}

/** The parsed template, or why it does not parse. */
function parseTemplate(body: string): Template | string {
  try {
    return new Template(body);
  } catch (error) {
    return `not a valid template (${oneLine(describeError(error).replace(/^(Parser|Lexer) Error: /, ''))})`;
  }
}

/** {@link bodyTemplateProblem} on a parsed template. */
function checkTemplate(template: Template, model: string): string | undefined {
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

/**
 * Compiles an `http` target's body template (Jinja, @huggingface/jinja: the engine of harm
 * resources, with its `tojson` filter). Rendered in this thread, unlike persona templates: the
 * template is the user's own declaration, not a resource's, and a worker round trip per call
 * would cost more than the call's whole share of the CPU budget.
 *
 * The template is checked here (`bodyTemplateProblem`) unless `checked` says it was already: a
 * config file loaded with `checkBodyTemplate` checks it once, at load, naming file:line.
 *
 * @throws InputError `where: <the problem>` when the template does not parse, or (unchecked) fails the check.
 */
export function compileBodyTemplate(source: string, where: string, options: CompileBodyOptions): BodyTemplate {
  const template = parseTemplate(source);
  if (typeof template === 'string') throw new InputError(`${where}: ${template}`);
  if (options.checked !== true) {
    const problem = checkTemplate(template, options.model);
    if (problem !== undefined) throw new InputError(`${where}: ${problem}`);
  }
  const engine = (variables: TargetRequest): string => {
    const text = template.render(variables as unknown as Record<string, unknown>);
    JSON.parse(text);
    return text;
  };
  // Text and `{{ path | tojson }}` only (the usual body): spliced, the same bytes at a fraction of
  // the cost, and not parsed again when its shape makes every body JSON (`alwaysJson`).
  const splice = compileJsonSplice(template.parsed);
  const spliced = (variables: TargetRequest): string | undefined => {
    const text = splice?.render(variables as unknown as Record<string, unknown>);
    if (text !== undefined && !splice?.alwaysJson) JSON.parse(text);
    return text;
  };
  return {
    render: splice ? (variables) => spliced(variables) ?? engine(variables) : engine,
    perSample: readsAny(template.parsed, PER_SAMPLE_VARIABLES),
  };
}

/** Whether any identifier of the parsed template is one of `names` (a walk over the whole tree). */
function readsAny(node: unknown, names: ReadonlySet<string>): boolean {
  if (Array.isArray(node)) return node.some((child) => readsAny(child, names));
  if (node === null || typeof node !== 'object') return false;
  const record = node as Record<string, unknown>;
  if (record.type === 'Identifier' && typeof record.value === 'string' && names.has(record.value)) return true;
  return Object.values(record).some((child) => readsAny(child, names));
}
