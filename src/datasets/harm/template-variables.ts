/**
 * The variables a Jinja template reads from its parameters, found by walking its syntax tree.
 * The engine renders an undefined variable as nothing, silently; a persona missing its goal or
 * topic that way would still be simulated and judged. So the loader asks this walk which names a
 * template needs and refuses a parameter row that lacks one.
 */

/** A syntax-tree node of `@huggingface/jinja`, structurally (the package does not export its AST classes). */
interface Node {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** Names the engine defines itself (its globals) and the ones it binds inside loops and macros. */
const BUILT_IN = new Set(['true', 'false', 'none', 'True', 'False', 'None', 'range', 'raise_exception', 'strftime_now', 'namespace']);

/**
 * Free variables of a parsed template, in order of first use: identifiers read where nothing in
 * the template has bound them (`for` loop variables and `loop` inside their loop, `set` targets
 * after the `set`, macro names and arguments). Attribute names (`x.name`), filter and test names
 * and keyword-argument names are not variables.
 */
export function templateVariables(program: Node): string[] {
  const found = new Set<string>();
  walkBody(asNodes(program['body']), new Set(BUILT_IN), found);
  return [...found];
}

function walkBody(statements: readonly Node[], scope: Set<string>, found: Set<string>): void {
  for (const statement of statements) walk(statement, scope, found);
}

function walk(node: Node, scope: Set<string>, found: Set<string>): void {
  switch (node.type) {
    case 'Identifier': {
      const name = node['value'] as string;
      if (!scope.has(name)) found.add(name);
      return;
    }
    case 'Comment':
      return;
    case 'MemberExpression':
      walk(node['object'] as Node, scope, found);
      if (node['computed']) walk(node['property'] as Node, scope, found);
      return;
    case 'FilterExpression':
      walk(node['operand'] as Node, scope, found);
      walkFilter(node['filter'] as Node, scope, found);
      return;
    case 'FilterStatement':
      walkFilter(node['filter'] as Node, scope, found);
      walkBody(asNodes(node['body']), scope, found);
      return;
    case 'TestExpression':
      walk(node['operand'] as Node, scope, found);
      return;
    case 'KeywordArgumentExpression':
      walk(node['value'] as Node, scope, found);
      return;
    case 'For': {
      walk(node['iterable'] as Node, scope, found);
      const inner = new Set([...scope, 'loop', ...boundNames(node['loopvar'] as Node)]);
      walkBody(asNodes(node['body']), inner, found);
      walkBody(asNodes(node['defaultBlock']), scope, found);
      return;
    }
    case 'Set': {
      if (node['value']) walk(node['value'] as Node, scope, found);
      walkBody(asNodes(node['body']), scope, found);
      const assignee = node['assignee'] as Node;
      if (assignee.type === 'MemberExpression') walk(assignee, scope, found);
      // A `set` binds for the statements after it, in the same scope.
      for (const name of boundNames(assignee)) scope.add(name);
      return;
    }
    case 'Macro': {
      scope.add((node['name'] as Node)['value'] as string);
      const inner = new Set([...scope, 'caller', 'varargs', 'kwargs']);
      for (const arg of asNodes(node['args'])) {
        if (arg.type === 'KeywordArgumentExpression') {
          walk(arg['value'] as Node, scope, found);
          inner.add((arg['key'] as Node)['value'] as string);
        } else {
          inner.add(arg['value'] as string);
        }
      }
      walkBody(asNodes(node['body']), inner, found);
      return;
    }
    case 'CallStatement': {
      walk(node['call'] as Node, scope, found);
      const inner = new Set([...scope, 'caller', ...asNodes(node['callerArgs']).flatMap(boundNames)]);
      walkBody(asNodes(node['body']), inner, found);
      return;
    }
    default:
      walkChildren(node, scope, found);
  }
}

/** A filter's name is not a variable; its arguments are expressions. */
function walkFilter(filter: Node, scope: Set<string>, found: Set<string>): void {
  if (filter.type === 'CallExpression') for (const arg of asNodes(filter['args'])) walk(arg, scope, found);
}

/** Any other node: every child node, in field order (`operator` is a token, not a node). */
function walkChildren(node: Node, scope: Set<string>, found: Set<string>): void {
  for (const [key, value] of Object.entries(node)) {
    if (key === 'operator' || key === 'type') continue;
    if (value instanceof Map) {
      for (const [k, v] of value) {
        if (isNode(k)) walk(k, scope, found);
        if (isNode(v)) walk(v, scope, found);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) walk(item, scope, found);
    } else if (isNode(value)) {
      walk(value, scope, found);
    }
  }
}

function boundNames(target: Node): string[] {
  if (target.type === 'Identifier') return [target['value'] as string];
  if (target.type === 'TupleLiteral' || target.type === 'ArrayLiteral') return asNodes(target['value']).flatMap(boundNames);
  if (target.type === 'KeywordArgumentExpression') return boundNames(target['key'] as Node);
  return [];
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function asNodes(value: unknown): Node[] {
  return Array.isArray(value) ? value.filter(isNode) : [];
}
