import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../core/index.js';
import { envReferences, hasEnvReference, resolveEnvTemplate } from './env-template.js';

test('${VAR} references are read from the environment given, at the time of the call', () => {
  const env = { BOT_TOKEN: 'tok-1', HOST: 'h.example' };
  assert.equal(resolveEnvTemplate('Bearer ${BOT_TOKEN}', env), 'Bearer tok-1');
  assert.equal(resolveEnvTemplate('https://${HOST}/v1?t=${BOT_TOKEN}', env), 'https://h.example/v1?t=tok-1');
  assert.equal(resolveEnvTemplate('Bearer ${BOT_TOKEN}', { BOT_TOKEN: 'rotated' }), 'Bearer rotated');
});

test('only ${NAME} is a reference: other dollars are text', () => {
  assert.equal(resolveEnvTemplate('$5 and $HOME and ${not valid} and ${1X}', {}), '$5 and $HOME and ${not valid} and ${1X}');
  assert.deepEqual(envReferences('${A}${B}-${A}'), ['A', 'B']);
  assert.equal(hasEnvReference('evals'), false);
  assert.equal(hasEnvReference('x ${K}'), true);
});

test('an unset or empty variable is refused by name, never sent as nothing', () => {
  for (const env of [{}, { KEY: '' }]) {
    assert.throws(
      () => resolveEnvTemplate('Bearer ${KEY}', env, 'assay.yaml:7: models.bot.http.headers.Authorization'),
      (e: unknown) => e instanceof InputError && e.message === 'assay.yaml:7: models.bot.http.headers.Authorization: environment variable KEY is not set',
    );
  }
});
