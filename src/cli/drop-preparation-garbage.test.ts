import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { dropPreparationGarbage } from './drop-preparation-garbage.js';

test('dropPreparationGarbage collects what nothing holds any more', async () => {
  let data: object | undefined = { rows: Array.from({ length: 1000 }, (_, i) => ({ i })) };
  const weak = new WeakRef(data);
  data = undefined;
  // A WeakRef's target is kept until the job that made or read it ends.
  await nextTurn();
  dropPreparationGarbage();
  assert.equal(weak.deref(), undefined);
});

test('dropPreparationGarbage leaves no gc function behind: not here, not in contexts made later', () => {
  dropPreparationGarbage();
  dropPreparationGarbage();
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
  assert.equal(runInNewContext('typeof gc'), 'undefined');
});
