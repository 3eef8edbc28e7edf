import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregateSeverity, awayFromDefect, hasStrictMajority } from './severity.js';
import { isDefect, type DefectRule } from './defect-rate.js';

describe('aggregateSeverity', () => {
  it('odd count: the median, max − min, share equal to the median', () => {
    // [4, 4, 2] sorted → 2, 4, 4: median 4; spread 4 − 2 = 2; two of three are 4 → 2/3.
    assert.deepEqual(aggregateSeverity([4, 4, 2]), { value: 4, spread: 2, agreement: 2 / 3, majority: true, readable: 3, unreadable: 0 });
  });

  it('even count after dropping the unreadable: the lower median, a value on the scale', () => {
    // [3, 1, 2, null, 5]: readable 1, 2, 3, 5 (4 of them); the middle two are 2 and 3 → lower median 2
    // (not 2.5); spread 5 − 1 = 4; one of the four is 2 → 1/4; one unreadable.
    assert.deepEqual(aggregateSeverity([3, 1, 2, null, 5]), { value: 2, spread: 4, agreement: 0.25, majority: false, readable: 4, unreadable: 1 });
  });

  it('a tie between two levels takes the lower one', () => {
    // 2, 2, 4, 4: middle two 2 and 4 → 2; half the repeats are 2.
    assert.deepEqual(aggregateSeverity([4, 2, 4, 2]), { value: 2, spread: 2, agreement: 0.5, majority: false, readable: 4, unreadable: 0 });
  });

  it('all equal: spread 0, agreement 1', () => {
    assert.deepEqual(aggregateSeverity([3, 3, 3, 3, 3]), { value: 3, spread: 0, agreement: 1, majority: true, readable: 5, unreadable: 0 });
  });

  it('no readable repeat is no verdict, never a severity', () => {
    assert.deepEqual(aggregateSeverity([null, null, null]), { value: null, spread: null, agreement: null, majority: null, readable: 0, unreadable: 3 });
    assert.deepEqual(aggregateSeverity([]), { value: null, spread: null, agreement: null, majority: null, readable: 0, unreadable: 0 });
  });

  it('with a scale, off-scale and fractional readings are unreadable', () => {
    // 1..5 scale: 7 and 2.5 are dropped; readable 3, 4 → lower median 3.
    assert.deepEqual(aggregateSeverity([7, 3, 2.5, 4], { min: 1, max: 5 }), { value: 3, spread: 1, agreement: 0.5, majority: false, readable: 2, unreadable: 2 });
  });

  it('a tie taken on the upper side gives the upper middle reading, still a level', () => {
    // groundedness repeats [2, 2, 3, 3]: middle two 2 and 3 → upper 3 (never 2.5); half the repeats are 3.
    assert.deepEqual(aggregateSeverity([2, 3, 2, 3], { min: 1, max: 5 }, 'upper'), { value: 3, spread: 1, agreement: 0.5, majority: false, readable: 4, unreadable: 0 });
  });

  it('a strict majority is the value whichever side a tie would take', () => {
    // [1, 4, 4, 5]: 4 holds 2 of 4 — not a majority; [1, 4, 4, 4, 5]: 4 holds 3 of 5 — the value both ways.
    for (const tie of ['lower', 'upper'] as const) {
      const verdict = aggregateSeverity([1, 4, 4, 4, 5], undefined, tie);
      assert.equal(verdict.value, 4);
      assert.equal(verdict.majority, true);
    }
    assert.equal(aggregateSeverity([1, 4, 4, 5]).majority, false);
  });

  it('away from the defect: an item is a defect exactly when more than half of its readings are', () => {
    // Every list of 1–4 readings on 1..3, both rule directions, threshold 2: the aggregated value is a
    // defect if and only if strictly more than half of the readings are defects.
    const rules: DefectRule[] = [{ threshold: 2, when: 'at-least' }, { threshold: 2, when: 'at-most' }];
    const lists: number[][] = [[]];
    for (let len = 0; len < 4; len++) for (const l of [...lists]) if (l.length === len) for (const v of [1, 2, 3]) lists.push([...l, v]);
    let checked = 0;
    for (const rule of rules) {
      for (const list of lists.filter((l) => l.length > 0)) {
        const value = aggregateSeverity(list, undefined, awayFromDefect(rule)).value as number;
        const defects = list.filter((v) => isDefect(v, rule)).length;
        assert.equal(isDefect(value, rule), defects * 2 > list.length, `${rule.when} ${JSON.stringify(list)}`);
        checked++;
      }
    }
    assert.equal(checked, 2 * (3 + 9 + 27 + 81));
  });

  it('awayFromDefect: lower when high levels are defects, upper when low ones are', () => {
    assert.equal(awayFromDefect({ threshold: 3, when: 'at-least' }), 'lower');
    assert.equal(awayFromDefect({ threshold: 2, when: 'at-most' }), 'upper');
  });

  it('hasStrictMajority: more than half, a tie is not one', () => {
    assert.equal(hasStrictMajority([2, 2, 3]), true);
    assert.equal(hasStrictMajority([2, 2, 3, 3]), false);
    assert.equal(hasStrictMajority([1, 2, 3, 4, 4]), false);
    assert.equal(hasStrictMajority([5]), true);
  });
});
