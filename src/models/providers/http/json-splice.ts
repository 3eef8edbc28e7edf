/**
 * A fast path for the body templates most people write: literal text and `{{ path | tojson }}`
 * outputs only, e.g. `{"session": {{ session | tojson }}, "messages": {{ messages | tojson }}}`.
 * Such a template is rendered here by splicing the values' JSON between its texts, byte for byte
 * what the Jinja engine writes (its `tojson`: `", "` and `": "` separators, undefined as null),
 * without converting the whole request into the engine's runtime values first — which made the
 * engine cost ~0.17 ms of CPU per call on MetaTool's prompts, a third of a call's whole budget.
 *
 * Whenever a value is not plain JSON data or a path does not lead where the engine would simply
 * read a value (a missing key, an index out of range, a member of a list), the splice gives up
 * for that call and the engine renders it: the output is always the engine's.
 */

/** One step of a path: an object key or a list index. */
type Step = string | number;
type Part = string | { readonly root: string; readonly steps: readonly Step[] };

/** Returned by a splice that cannot answer for this call: the engine renders it instead. */
const GIVE_UP = Symbol('give up');

interface Node {
  readonly type: string;
  readonly [field: string]: unknown;
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** The path of `a`, `a.b`, `a["b"]`, `a[0]`, or undefined for any other expression. */
function pathOf(node: unknown): { root: string; steps: Step[] } | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'Identifier' && typeof node.value === 'string') return { root: node.value, steps: [] };
  if (node.type !== 'MemberExpression') return undefined;
  const object = pathOf(node.object);
  const property = node.property;
  if (!object || !isNode(property)) return undefined;
  if (!node.computed && property.type === 'Identifier' && typeof property.value === 'string') return { root: object.root, steps: [...object.steps, property.value] };
  if (node.computed && property.type === 'StringLiteral' && typeof property.value === 'string') return { root: object.root, steps: [...object.steps, property.value] };
  if (node.computed && property.type === 'IntegerLiteral' && typeof property.value === 'number' && property.value >= 0) return { root: object.root, steps: [...object.steps, property.value] };
  return undefined;
}

/** The parts of a parsed template made only of text and `{{ path | tojson }}`; undefined for any other template. */
function partsOf(program: unknown): Part[] | undefined {
  if (!isNode(program) || program.type !== 'Program' || !Array.isArray(program.body)) return undefined;
  const parts: Part[] = [];
  for (const node of program.body as unknown[]) {
    if (!isNode(node)) return undefined;
    if (node.type === 'StringLiteral' && typeof node.value === 'string') {
      parts.push(node.value);
      continue;
    }
    const filter = node.filter;
    if (node.type !== 'FilterExpression' || !isNode(filter) || filter.type !== 'Identifier' || filter.value !== 'tojson') return undefined;
    const path = pathOf(node.operand);
    if (!path) return undefined;
    parts.push(path);
  }
  return parts;
}

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at a path, as the engine reads plain data; GIVE_UP where it would do anything else. */
function valueAt(variables: Readonly<Record<string, unknown>>, root: string, steps: readonly Step[]): unknown {
  if (!hasOwn(variables, root)) return GIVE_UP;
  let value: unknown = variables[root];
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(value) || step >= value.length) return GIVE_UP;
      value = value[step];
    } else {
      if (!isPlainObject(value) || !hasOwn(value, step)) return GIVE_UP;
      value = value[step];
    }
  }
  return value;
}

/** JSON as the engine's `tojson` writes it (no arguments); GIVE_UP for what is not JSON data. */
export function jinjaJson(value: unknown): string | typeof GIVE_UP {
  switch (typeof value) {
    case 'undefined':
      return 'null';
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item = jinjaJson(value[i]);
          if (item === GIVE_UP) return GIVE_UP;
          out += i === 0 ? item : `, ${item}`;
        }
        return `${out}]`;
      }
      // The engine reads an object's own enumerable entries (Object.entries), as this does.
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return GIVE_UP;
      let out = '{';
      let first = true;
      for (const key in value) {
        if (!hasOwn(value, key)) continue;
        const item = jinjaJson((value as Record<string, unknown>)[key]);
        if (item === GIVE_UP) return GIVE_UP;
        out += `${first ? '' : ', '}${JSON.stringify(key)}: ${item}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return GIVE_UP;
  }
}

export interface JsonSplice {
  /** The body for these variables, or undefined for a call left to the engine. */
  render(variables: Readonly<Record<string, unknown>>): string | undefined;
  /**
   * Whether every body the splice renders is JSON whatever the values: true when the template's
   * text is JSON with each output filled by `0` and, again, by `"\""`. Only a place that takes a
   * whole value takes both a number and a string (not inside a string, not as a key, not beside a
   * digit), and a place that takes a whole value takes any JSON value: such bodies need no check.
   */
  readonly alwaysJson: boolean;
}

const parsesAsJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * The splice for a parsed template, or undefined when the template is not text and
 * `{{ path | tojson }}` only.
 */
export function compileJsonSplice(program: unknown): JsonSplice | undefined {
  const parts = partsOf(program);
  if (!parts) return undefined;
  const filled = (filler: string): string => parts.map((part) => (typeof part === 'string' ? part : filler)).join('');
  const alwaysJson = parsesAsJson(filled('0')) && parsesAsJson(filled('"\\""'));
  const render = (variables: Readonly<Record<string, unknown>>): string | undefined => {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const value = valueAt(variables, part.root, part.steps);
      if (value === GIVE_UP) return undefined;
      const json = jinjaJson(value);
      if (json === GIVE_UP) return undefined;
      out += json;
    }
    return out;
  };
  return { render, alwaysJson };
}
