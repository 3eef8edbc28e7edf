import type { GenerateResult } from '../../core/index.js';
import { exactMatch } from '../functionchat/exact-match.js';
import { describeExpectation, type Expectation, type ExpectationResult } from './expectation.js';
import type { SchemaCheck } from './json-schema.js';

/** An expectation ready to check: a regex compiled, a schema compiled (the case file's reader did both, once). */
export type ReadyExpectation = DeterministicExpectation | RubricExpectation;

/** A rubric: graded by the judge, never here. */
export interface RubricExpectation {
  readonly expectation: Extract<Expectation, { kind: 'rubric' }>;
}

export const isRubric = (ready: ReadyExpectation): ready is RubricExpectation => ready.expectation.kind === 'rubric';

/** Expectations decided without a judge: every kind but `rubric`. */
export type DeterministicExpectation =
  | { readonly expectation: Exclude<Expectation, { kind: 'regex' | 'json-schema' | 'rubric' }> }
  | { readonly expectation: Extract<Expectation, { kind: 'regex' }>; readonly regex: RegExp }
  | { readonly expectation: Extract<Expectation, { kind: 'json-schema' }>; readonly check: SchemaCheck };

const MAX_QUOTED = 80;
const quoted = (text: string): string => JSON.stringify(text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED - 1)}…` : text);

/**
 * The answer parsed as JSON: the text, trimmed, or the inside of one Markdown code fence around
 * all of it (```json … ```), which chat models add even when told not to.
 */
export function parseAnswerJson(text: string): { readonly value: unknown } | { readonly error: string } {
  const trimmed = text.trim();
  const fenced = /^```[A-Za-z0-9_-]*\r?\n([\s\S]*?)\r?\n?```$/.exec(trimmed);
  const body = fenced ? (fenced[1] as string) : trimmed;
  if (body === '') return { error: 'the answer is empty, not JSON' };
  try {
    return { value: JSON.parse(body) as unknown };
  } catch (error) {
    return { error: `the answer is not JSON (${(error as Error).message})` };
  }
}

/**
 * Checks one expectation that needs no judge against an output (pure):
 * - `contains` / `not-contains`: the text as written, case and spacing exact, in the answer's text
 *   (a tool call's arguments are not text);
 * - `regex`: a match anywhere in the answer's text;
 * - `json-schema`: the answer's text parsed as JSON ({@link parseAnswerJson}) valid against the schema;
 * - `tool-call`: FunctionChat's exact match — exactly one call, the name exact, the same keys,
 *   every value equal (strings without whitespace and case, numbers as numbers, no type coercion).
 */
export function checkExpectation(ready: DeterministicExpectation, output: GenerateResult): ExpectationResult {
  const e = ready.expectation;
  const result = (pass: boolean, reason: string): ExpectationResult => ({ kind: e.kind, expected: describeExpectation(e), outcome: pass ? 'pass' : 'fail', reason });
  switch (e.kind) {
    case 'contains':
      return output.text.includes(e.text) ? result(true, 'found') : result(false, `${quoted(e.text)} is not in the answer`);
    case 'not-contains': {
      const at = output.text.indexOf(e.text);
      return at < 0 ? result(true, 'absent') : result(false, `${quoted(e.text)} is in the answer (at character ${at + 1})`);
    }
    case 'regex': {
      const match = (ready as Extract<ReadyExpectation, { regex: RegExp }>).regex.exec(output.text);
      return match ? result(true, `matched ${quoted(match[0])}`) : result(false, 'no match in the answer');
    }
    case 'json-schema': {
      const parsed = parseAnswerJson(output.text);
      if ('error' in parsed) return result(false, parsed.error);
      const problem = (ready as Extract<ReadyExpectation, { check: SchemaCheck }>).check(parsed.value);
      return problem === null ? result(true, 'valid against the schema') : result(false, `not valid: ${problem}`);
    }
    case 'tool-call': {
      const expected = { kind: 'call' as const, name: e.name, rawArguments: JSON.stringify(e.arguments), arguments: e.arguments };
      const match = exactMatch(expected, { kind: 'none' }, output.toolCalls);
      return result(match.match, match.reason);
    }
  }
}
