import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { Pool } from './undici-pool.js';

test("undici-pool's Pool is the class undici exports (the internal path still holds it)", () => {
  const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
  assert.equal(Pool, undici.Pool);
  assert.equal(typeof Pool.prototype.dispatch, 'function');
});
