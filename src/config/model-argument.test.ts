import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveModelArgument } from './model-argument.js';
import { configFolder, EXAMPLE_CONFIG, refusal } from './test-support/config-folder.js';

const config = configFolder().load(EXAMPLE_CONFIG);

test('a declared name resolves to its declaration', () => {
  const resolved = resolveModelArgument('support-bot', config);
  assert.ok(resolved.kind === 'declared');
  assert.equal(resolved.declaration.kind, 'http');
  assert.equal(resolved.declaration.name, 'support-bot');
});

test('a provider:model id works unchanged, with or without a file', () => {
  const expected = { kind: 'id', id: { provider: 'openai', model: 'gpt-4o', id: 'openai:gpt-4o' } };
  assert.deepEqual(resolveModelArgument('openai:gpt-4o', config), expected);
  assert.deepEqual(resolveModelArgument('openai:gpt-4o', undefined), expected);
  assert.deepEqual(resolveModelArgument('local:./m.gguf', undefined), { kind: 'id', id: { provider: 'local', model: './m.gguf', id: 'local:./m.gguf' } });
  assert.match(refusal(() => resolveModelArgument('opnai:gpt-4o', config)).message, /^unknown provider "opnai"/);
});

test('an unknown name lists the declared ones and the nearest', () => {
  assert.equal(
    refusal(() => resolveModelArgument('smal', config)).message,
    'model "smal" is not declared in assay.yaml (did you mean "small"?): it declares small, big, support-bot, my-agent, my-script; a provider\'s model is written provider:model, e.g. openai:gpt-4o-mini',
  );
  assert.equal(
    refusal(() => resolveModelArgument('gpt-4o', configFolder().load('models: {}\n'))).message,
    'model "gpt-4o" is not declared in assay.yaml: it declares no models; a provider\'s model is written provider:model, e.g. openai:gpt-4o-mini',
  );
});

test('a name without a file says where a file is looked for', () => {
  assert.equal(
    refusal(() => resolveModelArgument('small', undefined)).message,
    'model "small" is not declared: there is no config file (assay.yaml in the working directory, --config FILE or ASSAY_CONFIG); a provider\'s model is written provider:model, e.g. openai:gpt-4o-mini',
  );
});
