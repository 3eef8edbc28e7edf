import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GenerateResult, ToolCall } from '../../core/index.js';
import { checkExpectation, parseAnswerJson, type DeterministicExpectation } from './check-output.js';
import { compileJsonSchema } from './json-schema.js';

const output = (text: string, toolCalls: readonly ToolCall[] = []): GenerateResult => ({ text, toolCalls, finishReason: { unified: toolCalls.length > 0 ? 'tool-calls' : 'stop' }, usage: {}, warnings: [] });
const call = (name: string, rawArguments: string): ToolCall => {
  try {
    return { id: 'c1', name, arguments: JSON.parse(rawArguments) as unknown, rawArguments };
  } catch (error) {
    return { id: 'c1', name, arguments: undefined, rawArguments, parseError: (error as Error).message };
  }
};
const outcome = (e: DeterministicExpectation, out: GenerateResult): string => {
  const r = checkExpectation(e, out);
  return `${r.outcome}: ${r.reason}`;
};

test('contains: the text as written, case exact, in the answer text only', () => {
  const e: DeterministicExpectation = { expectation: { kind: 'contains', text: '30 days' } };
  assert.equal(outcome(e, output('You have 30 days.')), 'pass: found');
  assert.equal(outcome(e, output('You have 30 Days.')), 'fail: "30 days" is not in the answer');
  assert.equal(outcome(e, output('', [call('f', '{"x": "30 days"}')])), 'fail: "30 days" is not in the answer', 'arguments are not text');
});

test('not-contains: passes when absent, fails naming where it is', () => {
  const e: DeterministicExpectation = { expectation: { kind: 'not-contains', text: 'MARIGOLD' } };
  assert.equal(outcome(e, output('Hello')), 'pass: absent');
  assert.equal(outcome(e, output('The word is MARIGOLD')), 'fail: "MARIGOLD" is in the answer (at character 13)');
});

test('regex: a match anywhere, the matched text in the reason; flags kept', () => {
  const e: DeterministicExpectation = { expectation: { kind: 'regex', pattern: '\\b30\\b', flags: '' }, regex: /\b30\b/ };
  assert.equal(outcome(e, output('within 30 days')), 'pass: matched "30"');
  assert.equal(outcome(e, output('within 300 days')), 'fail: no match in the answer');
  const i: DeterministicExpectation = { expectation: { kind: 'regex', pattern: 'thanks', flags: 'i' }, regex: /thanks/i };
  assert.equal(checkExpectation(i, output('Thanks!')).outcome, 'pass');
});

test('json-schema: the answer parsed as JSON (a code fence around it allowed) and validated; not JSON fails', () => {
  const check = compileJsonSchema({ type: 'object', properties: { days: { type: 'integer' } }, required: ['days'], additionalProperties: false });
  const e: DeterministicExpectation = { expectation: { kind: 'json-schema', schema: 's.json' }, check };
  assert.equal(outcome(e, output('{"days": 30}')), 'pass: valid against the schema');
  assert.equal(outcome(e, output('```json\n{"days": 30}\n```')), 'pass: valid against the schema');
  assert.equal(outcome(e, output('{"days": "30"}')), 'fail: not valid: /days must be integer');
  assert.equal(outcome(e, output('{"weeks": 4}')), "fail: not valid: (the answer) must have required property 'days'; (the answer) must NOT have additional properties");
  assert.match(outcome(e, output('30 days')), /^fail: the answer is not JSON \(/);
  assert.equal(outcome(e, output('  ')), 'fail: the answer is empty, not JSON');
  assert.deepEqual(parseAnswerJson(' [1, 2] '), { value: [1, 2] });
});

test('tool-call: FunctionChat exact match — one call, exact name, same keys, values equal without whitespace/case, no type coercion', () => {
  const e: DeterministicExpectation = { expectation: { kind: 'tool-call', name: 'getOrder', arguments: { orderId: 'A-17' } } };
  assert.equal(outcome(e, output('', [call('getOrder', '{"orderId": "A-17"}')])), 'pass: exact match');
  assert.equal(outcome(e, output('', [call('getOrder', '{"orderId": "a - 17"}')])), 'pass: exact match', 'strings compared without whitespace, lowercased');
  assert.equal(outcome(e, output('I will look it up')), 'fail: no tool call');
  assert.equal(outcome(e, output('', [call('getorder', '{"orderId": "A-17"}')])), 'fail: called "getorder"; expected "getOrder"');
  assert.equal(outcome(e, output('', [call('getOrder', '{"orderId": "A-17", "x": 1}')])), 'fail: extra key "x"');
  assert.equal(outcome(e, output('', [call('getOrder', '{}')])), 'fail: missing key "orderId"');
  assert.equal(outcome(e, output('', [call('getOrder', '{"orderId": "A-18"}')])), 'fail: value of "orderId" differs');
  assert.match(outcome(e, output('', [call('getOrder', '{"orderId": ')])), /^fail: arguments are not valid JSON/);
  assert.equal(outcome(e, output('', [call('getOrder', '{"orderId": "A-17"}'), call('getOrder', '{"orderId": "A-17"}')])), 'fail: 2 tool calls; expected exactly one');
  const n: DeterministicExpectation = { expectation: { kind: 'tool-call', name: 'setSpeed', arguments: { kmh: 25 } } };
  assert.equal(outcome(n, output('', [call('setSpeed', '{"kmh": 25.0}')])), 'pass: exact match');
  assert.equal(outcome(n, output('', [call('setSpeed', '{"kmh": "25"}')])), 'fail: value of "kmh" differs');
});

test('compileJsonSchema: refuses what is not a JSON Schema, names the draft it validates by', () => {
  assert.throws(() => compileJsonSchema('hello'), /a JSON Schema is an object or a boolean, not string/);
  assert.throws(() => compileJsonSchema({ type: 'objectt' }), /not a valid draft-07 JSON Schema \(\/type must be equal to one of the allowed values/);
  assert.throws(() => compileJsonSchema({ foo: 1 }), /not a usable JSON Schema \(strict mode: unknown keyword: "foo"\)/);
  assert.throws(() => compileJsonSchema({ $schema: 'http://json-schema.org/draft-04/schema#' }), /is not a draft assay validates/);
  const check2020 = compileJsonSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', prefixItems: [{ type: 'string' }] });
  assert.equal(check2020(['a']), null);
  assert.equal(check2020([1]), '/0 must be string');
  assert.equal(compileJsonSchema(true)(42), null);
});
