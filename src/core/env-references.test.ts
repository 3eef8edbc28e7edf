import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from './errors.js';
import { envReferences, hasEnvReference, malformedEnvReference, replaceEnvReferences, resolveEnvReferences } from './env-references.js';

test('${VAR} references are read from the environment given, at the time of the call', () => {
  const env = { BOT_TOKEN: 'tok-1', HOST: 'h.example' };
  assert.equal(resolveEnvReferences('Bearer ${BOT_TOKEN}', env, 'f'), 'Bearer tok-1');
  assert.equal(resolveEnvReferences('https://${HOST}/v1?t=${BOT_TOKEN}', env, 'f'), 'https://h.example/v1?t=tok-1');
  assert.equal(resolveEnvReferences('Bearer ${BOT_TOKEN}', { BOT_TOKEN: 'rotated' }, 'f'), 'Bearer rotated');
  assert.equal(resolveEnvReferences('Bearer ${A_1}-${B}', { A_1: 'x', B: 'y' }, 'h'), 'Bearer x-y');
});

test('references are listed once each, in order; a dollar without a brace is text', () => {
  assert.deepEqual(envReferences('${A}${B}-${A}', 'f'), ['A', 'B']);
  assert.deepEqual(envReferences('plain $A {B} $5 $HOME', 'h'), []);
  assert.equal(resolveEnvReferences('$5 and $HOME', {}, 'f'), '$5 and $HOME');
  assert.equal(hasEnvReference('evals'), false);
  assert.equal(hasEnvReference('x ${K}'), true);
  assert.equal(replaceEnvReferences('https://${HOST}:${PORT}/', () => '1'), 'https://1:1/');
});

test('a malformed ${...} is refused naming the field, never sent as text', () => {
  for (const bad of ['${a-b}', '${1X}', '${not valid}', '${}']) {
    assert.equal(malformedEnvReference(`Bearer ${bad}`), bad);
    const refused = (e: unknown) => e instanceof InputError && e.message.startsWith(`assay.yaml:7: models.bot.http.headers.X: "${bad}" is not an environment variable reference`);
    assert.throws(() => envReferences(`Bearer ${bad}`, 'assay.yaml:7: models.bot.http.headers.X'), refused);
    assert.throws(() => resolveEnvReferences(`Bearer ${bad}`, {}, 'assay.yaml:7: models.bot.http.headers.X'), refused);
  }
  assert.equal(malformedEnvReference('Bearer ${OK} $x'), undefined);
  assert.equal(hasEnvReference('${a-b}'), false);
});

test('an unset or empty variable is refused by name, never sent as nothing', () => {
  for (const env of [{}, { KEY: '' }]) {
    assert.throws(
      () => resolveEnvReferences('Bearer ${KEY}', env, 'assay.yaml:7: models.bot.http.headers.Authorization'),
      (e: unknown) => e instanceof InputError && e.message === 'assay.yaml:7: models.bot.http.headers.Authorization: environment variable KEY is not set',
    );
  }
});
