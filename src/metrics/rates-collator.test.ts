import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareKeysNaturally } from './rates.js';

// A file of its own: the collator, once made, is kept for the module's life.
test('compareKeysNaturally makes its collator on the first comparison of two non-numeric keys only', () => {
  const Original = Intl.Collator;
  let made = 0;
  Intl.Collator = function (...args: ConstructorParameters<typeof Intl.Collator>) {
    made++;
    return new Original(...args);
  } as unknown as typeof Intl.Collator;
  try {
    assert.deepEqual(['10', '2', '-1', '2.5'].sort(compareKeysNaturally), ['-1', '2', '2.5', '10']);
    assert.ok(compareKeysNaturally('3', 'a') < 0);
    assert.equal(made, 0);
    assert.deepEqual(['finance', 'Elders', 'artists'].sort(compareKeysNaturally), ['artists', 'Elders', 'finance']);
    assert.equal(made, 1);
  } finally {
    Intl.Collator = Original;
  }
});
