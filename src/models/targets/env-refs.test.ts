import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../core/index.js';
import { envReferences, resolveEnvReferences } from './env-refs.js';

test('${VAR} references are listed once each and replaced by their values; a missing or empty one is named', () => {
  assert.deepEqual(envReferences('Bearer ${A_1} ${B} ${A_1}', 'h'), ['A_1', 'B']);
  assert.deepEqual(envReferences('plain $A {B}', 'h'), []);
  assert.equal(resolveEnvReferences('Bearer ${A_1}-${B}', { A_1: 'x', B: 'y' }, 'h'), 'Bearer x-y');
  assert.throws(() => resolveEnvReferences('${MISSING}', {}, 'm: headers.X'), (e: unknown) => e instanceof InputError && e.message === 'm: headers.X needs the environment variable MISSING, which is not set');
  assert.throws(() => resolveEnvReferences('${EMPTY}', { EMPTY: '' }, 'h'), /EMPTY, which is not set/);
  assert.throws(() => envReferences('${a-b}', 'h'), /"\$\{a-b\}" is not an environment variable name/);
});
