import { Template } from '@huggingface/jinja';
import { describeError, InputError, system, user } from '../../../core/index.js';
import { buildTargetRequest, type TargetRequest } from '../../targets/target-request.js';
import { compileJsonSplice } from './json-splice.js';

/** The variables that make a body differ per sample: a template reading one is a stateful app's. */
const PER_SAMPLE_VARIABLES = new Set(['session', 'sample_id']);

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
 * A request made to try a template at build time: text with quotes, a backslash and a newline, a
 * system prompt and a tool, so that a template writing `"{{ prompt }}"` instead of
 * `{{ prompt | tojson }}` is refused before any call rather than on the first prompt with a quote.
 */
const PROBE: TargetRequest = buildTargetRequest(
  'probe',
  {
    messages: [system('You are "helpful".\nAnswer briefly.'), user('Say "hi" \\ then\nstop.')],
    tools: [{ name: 'get_weather', description: 'The "weather" now', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    settings: {},
  },
  'probe-session',
  'probe-sample',
);

/**
 * Compiles an `http` target's body template (Jinja, @huggingface/jinja: the engine of harm
 * resources, with its `tojson` filter). Rendered in this thread, unlike persona templates: the
 * template is the user's own declaration, not a resource's, and a worker round trip per call
 * would cost more than the call's whole share of the CPU budget.
 *
 * @throws InputError naming `where` when the template does not parse, or does not render JSON.
 */
export function compileBodyTemplate(source: string, where: string): BodyTemplate {
  let template: Template;
  try {
    template = new Template(source);
  } catch (error) {
    throw new InputError(`${where}: the body template does not parse: ${describeError(error)}`);
  }
  let probe: string;
  try {
    probe = template.render(PROBE as unknown as Record<string, unknown>);
  } catch (error) {
    throw new InputError(`${where}: the body template fails to render: ${describeError(error)}`);
  }
  try {
    JSON.parse(probe);
  } catch {
    const shown = probe.length > 160 ? `${probe.slice(0, 159)}…` : probe;
    throw new InputError(
      `${where}: the body template does not render JSON for a prompt with quotes and a newline (write values as {{ prompt | tojson }}, not "{{ prompt }}"); it rendered: ${JSON.stringify(shown)}`,
    );
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
