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
  try {
    compile(expression);
  } catch (error) {
    throw new InputError(`${where}: "${expression}" is not a JMESPath expression: ${describeError(error)}`);
  }
  return { expression, find: (answer) => search(answer, expression) };
}
