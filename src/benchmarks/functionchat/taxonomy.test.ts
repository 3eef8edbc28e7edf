import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolCallFromRaw, type ToolCall, type ToolSpec } from '../../core/index.js';
import { parseAcceptableArguments, type GroundTruthCall } from '../../datasets/functionchat/index.js';
import { diagnoseCall, matchesSchemaType, type CallDiagnosis } from './taxonomy.js';

const tools: ToolSpec[] = [
  {
    name: 'calculate_bmi',
    description: 'BMI',
    parameters: {
      type: 'object',
      properties: { height: { type: 'number' }, weight: { type: 'integer' }, unit: { type: 'string' }, metric: { type: 'boolean' } },
      required: ['height', 'weight'],
    },
  },
  { name: 'informWeather', description: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
];
const expected: GroundTruthCall = { kind: 'call', name: 'calculate_bmi', rawArguments: '{"height": 170, "weight": 65}', arguments: { height: 170, weight: 65 } };
const acceptable = parseAcceptableArguments('{"height": [1.7]}');
const call = (name: string, raw: string): ToolCall => toolCallFromRaw('c', name, raw);
const diagnose = (...calls: ToolCall[]): CallDiagnosis => diagnoseCall({ expected, acceptable, tools, calls });

describe('diagnoseCall', () => {
  const table: [string, ToolCall[], CallDiagnosis][] = [
    ['an exact match has no error', [call('calculate_bmi', '{"height": 170.0, "weight": 65}')], { errors: [], keys: {} }],
    ['an acceptable value is no error', [call('calculate_bmi', '{"height": 1.7, "weight": 65}')], { errors: [], keys: {} }],
    ['no call', [], { errors: ['no_call'], keys: {} }],
    ['a function not offered', [call('get_bmi', '{"height": 170, "weight": 65}')], { errors: ['hallucinated_function'], keys: {} }],
    ['another offered function', [call('informWeather', '{"location": "서울"}')], { errors: ['wrong_function'], keys: {} }],
    ['malformed arguments', [call('calculate_bmi', '{"height": 170,')], { errors: ['malformed_arguments'], keys: {} }],
    ['arguments that are a list', [call('calculate_bmi', '[170, 65]')], { errors: ['malformed_arguments'], keys: {} }],
    ['a wrong function with malformed arguments has both', [call('informWeather', 'location=서울')], { errors: ['wrong_function', 'malformed_arguments'], keys: {} }],
    ['a missing key', [call('calculate_bmi', '{"height": 170}')], { errors: ['missing_required_key'], keys: { missing: ['weight'] } }],
    ['an extra key', [call('calculate_bmi', '{"height": 170, "weight": 65, "unit": "cm"}')], { errors: ['extra_key'], keys: { extra: ['unit'] } }],
    // 65.0 for an integer 65 is an exact match (numbers compare as numbers, as upstream), so no error.
    ['an integer written as a float, equal to the ground truth, is an exact match', [call('calculate_bmi', '{"height": 170, "weight": 65.0}')], { errors: [], keys: {} }],
    ['an integer written as a float is a wrong type', [call('calculate_bmi', '{"height": 170, "weight": 66.0}')], { errors: ['wrong_type'], keys: { wrong_type: ['weight'] } }],
    ['a number written as a string is a wrong type, not a wrong value', [call('calculate_bmi', '{"height": "170", "weight": 65}')], { errors: ['wrong_type'], keys: { wrong_type: ['height'] } }],
    ['a wrong value', [call('calculate_bmi', '{"height": 175, "weight": 65}')], { errors: ['wrong_value'], keys: { wrong_value: ['height'] } }],
    [
      'several at once, in category order',
      [call('calculate_bmi', '{"height": 160, "unit": 3}'), call('calculate_bmi', '{}')],
      { errors: ['multiple_calls', 'missing_required_key', 'extra_key', 'wrong_type', 'wrong_value'], keys: { missing: ['weight'], extra: ['unit'], wrong_type: ['unit'], wrong_value: ['height'] } },
    ],
  ];
  for (const [name, calls, result] of table) it(name, () => assert.deepEqual(diagnose(...calls), result));

  it('a key the schema requires but the ground truth lacks is missing too', () => {
    const gt: GroundTruthCall = { kind: 'call', name: 'calculate_bmi', rawArguments: '{"height": 170}', arguments: { height: 170 } };
    assert.deepEqual(diagnoseCall({ expected: gt, acceptable: { kind: 'none' }, tools, calls: [call('calculate_bmi', '{"height": 17}')] }), {
      errors: ['missing_required_key', 'wrong_value'],
      keys: { missing: ['weight'], wrong_value: ['height'] },
    });
  });
});

describe('matchesSchemaType', () => {
  const table: [unknown, unknown, string | undefined, boolean][] = [
    ['x', 'string', undefined, true],
    [1, 'string', undefined, false],
    [1.5, 'number', undefined, true],
    [2, 'integer', '2', true],
    [2, 'integer', '2.0', false],
    [2, 'integer', '2e0', false],
    [2.5, 'integer', undefined, false],
    [true, 'boolean', undefined, true],
    [[], 'array', undefined, true],
    [{}, 'object', undefined, true],
    [[], 'object', undefined, false],
    [null, ['string', 'null'], undefined, true],
    ['anything', undefined, undefined, true],
    ['anything', 'custom', undefined, true],
  ];
  for (const [value, type, literal, expected] of table) {
    it(`${JSON.stringify(value)} ${literal === undefined ? '' : `(written ${literal}) `}as ${JSON.stringify(type)}: ${expected}`, () => assert.equal(matchesSchemaType(value, type, literal), expected));
  }
});
