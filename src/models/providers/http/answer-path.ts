import * as jmespath from 'jmespath';
import { describeError, InputError } from '../../../core/index.js';

/** `compile` is exported by the package but missing from its type declarations. */
const { compile, search } = jmespath as unknown as { compile(expression: string): unknown; search(data: unknown, expression: string): unknown };

export interface AnswerPath {
  readonly expression: string;
  /**
   * What the expression finds in a JSON answer (null when nothing).
   * @throws Error when the expression fails on this answer (a function given the wrong type).
   */
  find(answer: unknown): unknown;
}

/**
 * A JMESPath expression into a target's JSON answer (`output`, `toolCalls`, `usage`), checked
 * when the target is built. @throws InputError naming `where` on a syntax error.
 */
export function compileAnswerPath(expression: string, where: string): AnswerPath {
  if (expression.trim() === '') throw new InputError(`${where}: the JMESPath expression is empty`);
  let ast: unknown;
  try {
    ast = compile(expression);
  } catch (error) {
    throw new InputError(`${where}: "${expression}" is not a JMESPath expression: ${describeError(error)}`);
  }
  return { expression, find: plainPath(ast) ?? ((answer) => search(answer, expression)) };
}

/**
 * Why an expression is not JMESPath (the parser's message), or undefined when it parses: the
 * `ExpressionCheck` the config loader takes (`loadConfig(…, { checkJmesPath })`), so a file is
 * checked with the parser the target reads answers with.
 */
export function jmesPathProblem(expression: string): string | undefined {
  if (expression.trim() === '') return 'the expression is empty';
  try {
    compile(expression);
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}

interface AstNode {
  readonly type: string;
  readonly name?: string;
  readonly value?: number;
  readonly children?: readonly AstNode[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && Object.prototype.toString.call(value) === '[object Object]';

/**
 * The paths most answers are read with — fields and indexes, `reply`, `choices[0].message.content`
 * — evaluated straight from the parsed expression, as jmespath's interpreter evaluates those node
 * types (a field of a non-object or an index of a non-list is null; negative indexes count from
 * the end), without parsing the expression again for every answer as `search` does. Undefined for
 * an expression with anything else (projections, filters, functions): `search` reads those.
 */
function plainPath(node: unknown): ((value: unknown) => unknown) | undefined {
  const ast = node as AstNode;
  switch (ast.type) {
    case 'Field': {
      const name = ast.name as string;
      return (value) => (isObject(value) ? (value[name] ?? null) : null);
    }
    case 'Index': {
      const at = ast.value as number;
      return (value) => (Array.isArray(value) ? ((value as unknown[])[at < 0 ? value.length + at : at] ?? null) : null);
    }
    case 'Subexpression': {
      const [left, right] = (ast.children ?? []).map(plainPath);
      if (!left || !right || ast.children?.length !== 2) return undefined;
      return (value) => {
        const inner = left(value);
        return inner === null ? null : right(inner);
      };
    }
    case 'IndexExpression': {
      const [left, right] = (ast.children ?? []).map(plainPath);
      if (!left || !right || ast.children?.length !== 2) return undefined;
      return (value) => right(left(value));
    }
    default:
      return undefined;
  }
}
