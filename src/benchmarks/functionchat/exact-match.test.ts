import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolCallFromRaw, type ToolCall } from '../../core/index.js';
import { parseAcceptableArguments, type AcceptableArguments, type GroundTruthCall } from '../../datasets/functionchat/index.js';
import { exactMatch, normalizeString, valuesEqual } from './exact-match.js';

const truth = (name: string, args: Record<string, unknown>): GroundTruthCall => ({ kind: 'call', name, rawArguments: JSON.stringify(args), arguments: args });
const call = (name: string, raw: string): ToolCall => toolCallFromRaw('c1', name, raw);
const NONE: AcceptableArguments = { kind: 'none' };

describe('valuesEqual', () => {
  const table: [string, unknown, unknown, boolean][] = [
    ['spaces and case in strings', 'Seoul Station', 'seoulstation', true],
    ['tabs and newlines are whitespace too', '서울\t역\n', '서울역', true],
    ['different strings', '서울', '부산', false],
    ['170 and 170.0 are one number', JSON.parse('170.0'), 170, true],
    ['different numbers', 170.5, 170, false],
    ['a numeric string is not a number', '170', 170, false],
    ['a boolean is not a number', true, 1, false],
    ['booleans', false, false, true],
    ['null', null, null, true],
    ['null is not a missing string', null, '', false],
    ['lists element by element, strings normalized', ['A b', 2], ['ab', 2.0], true],
    ['lists of other length', ['a'], ['a', 'b'], false],
    ['objects key by key', { city: 'New York' }, { city: 'newyork' }, true],
    ['objects with another key', { city: 'x', extra: 1 }, { city: 'x' }, false],
    ['a list is not an object', [], {}, false],
  ];
  for (const [name, p, e, expected] of table) it(name, () => assert.equal(valuesEqual(p, e), expected));

  it('normalizeString removes all whitespace and lowercases', () => assert.equal(normalizeString(' New  York\u00a0City '), 'newyorkcity'));
});

describe('exactMatch', () => {
  const gt = truth('informWeather', { location: '서귀포시', days: 3 });
  const alternatives = parseAcceptableArguments('{"location": ["서귀포", "Seogwipo"]}');
  const table: [string, readonly ToolCall[], AcceptableArguments, boolean, string][] = [
    ['the ground truth itself', [call('informWeather', '{"location": "서귀포시", "days": 3}')], NONE, true, 'exact match'],
    ['key order, spacing and case do not matter', [call('informWeather', '{"days":3.0,"location":" 서귀포 시"}')], NONE, true, 'exact match'],
    ['an acceptable alternative', [call('informWeather', '{"location": "seogwipo", "days": 3}')], alternatives, true, 'exact match'],
    ['an alternative of another key does not help', [call('informWeather', '{"location": "서귀포시", "days": "서귀포"}')], alternatives, false, 'value of "days" differs'],
    ['no alternative when only the ground truth is allowed', [call('informWeather', '{"location": "서귀포", "days": 3}')], { kind: 'only-ground-truth' }, false, 'value of "location" differs'],
    ['a rule sentence gives no alternative', [call('informWeather', '{"location": "서귀포", "days": 3}')], { kind: 'rule', text: 'Only 서귀포' }, false, 'value of "location" differs'],
    ['"3" is not 3', [call('informWeather', '{"location": "서귀포시", "days": "3"}')], NONE, false, 'value of "days" differs'],
    ['no call', [], NONE, false, 'no tool call'],
    ['two calls, even if the first is right', [call('informWeather', '{"location": "서귀포시", "days": 3}'), call('informWeather', '{}')], NONE, false, '2 tool calls; expected exactly one'],
    ['another function', [call('getWeather', '{"location": "서귀포시", "days": 3}')], NONE, false, 'called "getWeather"; expected "informWeather"'],
    ['function names are case-sensitive', [call('InformWeather', '{"location": "서귀포시", "days": 3}')], NONE, false, 'called "InformWeather"'],
    ['an extra key fails even with every expected key right', [call('informWeather', '{"location": "서귀포시", "days": 3, "unit": "C"}')], NONE, false, 'extra key "unit"'],
    ['a missing key', [call('informWeather', '{"location": "서귀포시"}')], NONE, false, 'missing key "days"'],
    ['arguments that are not JSON', [call('informWeather', '{"location": "서귀포시", "days": 3')], NONE, false, 'arguments are not valid JSON'],
    ['arguments that are a JSON list', [call('informWeather', '["서귀포시", 3]')], NONE, false, 'arguments are not a JSON object'],
  ];
  for (const [name, calls, acceptable, match, reason] of table) {
    it(name, () => {
      const result = exactMatch(gt, acceptable, calls);
      assert.equal(result.match, match);
      assert.ok(result.reason.startsWith(reason), `reason: ${result.reason}`);
    });
  }

  it('empty arguments match a call without parameters (an empty string reads as {})', () => {
    assert.equal(exactMatch(truth('getTodayBoxOfficeRanking', {}), NONE, [call('getTodayBoxOfficeRanking', '')]).match, true);
    assert.equal(exactMatch(truth('getTodayBoxOfficeRanking', {}), NONE, [call('getTodayBoxOfficeRanking', '{"x": 1}')]).match, false);
  });

  // docs/functionchat.md "Departures": the paper-era exact match loops over the ground truth's keys
  // and returns false when there are none, so upstream sent a right no-argument call to the judge.
  // assay passes it without one, however the model spaced its empty object.
  it('a no-argument call written with the literal arguments "{ }" is an exact match (departure: upstream asked the judge)', () => {
    const noArguments = truth('getTodayBoxOfficeRanking', {});
    for (const raw of ['{ }', '{}', ' {\n} ']) {
      const result = exactMatch(noArguments, NONE, [call('getTodayBoxOfficeRanking', raw)]);
      assert.deepEqual(result, { match: true, reason: 'exact match' }, `arguments ${JSON.stringify(raw)}`);
    }
    // Still exact: another function, or a key the ground truth lacks, fails.
    assert.equal(exactMatch(noArguments, NONE, [call('getBoxOfficeRanking', '{ }')]).match, false);
    assert.equal(exactMatch(noArguments, NONE, [call('getTodayBoxOfficeRanking', '{ "date": "today" }')]).reason, 'extra key "date"');
  });
});
