import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineSettingsSchema, MODEL_OWN_SETTINGS } from '../core/engine-settings.js';
import { MODEL_OWN_SETTING_ROWS, modelOwnSettings, OPERATIONAL_SETTING_KEYS } from '../core/model-own-settings.js';
import { parseConfig } from './load-config.js';
import { ENTRY_SCHEMAS } from './model-entry-schema.js';
import { OPERATIONAL_FIELDS } from './recorded-declaration.js';

// A model's own settings are declared once (core/engine-settings.ts, MODEL_OWN_SETTINGS): the
// config file's entries take their fields from that table, and a declared model's settings are
// read through it.

test('every kind of entry takes every own setting of the table (params: a provider entry only), with the engine\'s schema', () => {
  const own = Object.keys(MODEL_OWN_SETTINGS);
  for (const [kind, schema] of Object.entries(ENTRY_SCHEMAS)) {
    const keys = Object.keys(schema.shape);
    const expected = kind === 'provider' ? own : own.filter((key) => key !== 'params');
    assert.deepEqual(keys.filter((key) => own.includes(key)), expected, kind);
  }
  // The schemas' table is built on the settings' rows (core/model-own-settings.ts): same keys, same order.
  assert.deepEqual(own, Object.keys(MODEL_OWN_SETTING_ROWS));
  // The very schemas of the engine settings, not copies that could drift.
  assert.equal(MODEL_OWN_SETTINGS.rpm.schema, engineSettingsSchema.shape.requestsPerMinute);
  assert.equal(MODEL_OWN_SETTINGS.tpm.schema, engineSettingsSchema.shape.tokensPerMinute);
  assert.equal(MODEL_OWN_SETTINGS.concurrency.schema, engineSettingsSchema.shape.concurrency);
  assert.equal(MODEL_OWN_SETTINGS.timeoutMs.schema, engineSettingsSchema.shape.timeoutMs);
  assert.deepEqual(OPERATIONAL_FIELDS, OPERATIONAL_SETTING_KEYS);
  assert.deepEqual([...OPERATIONAL_FIELDS], ['rpm', 'tpm', 'concurrency', 'timeoutMs']);
});

test('a file\'s settings become the model\'s: written by hand for the issue\'s example', () => {
  const config = parseConfig(
    'assay.yaml',
    '/work/assay.yaml',
    [
      'models:',
      '  small:',
      '    provider: openai',
      '    model: gemma-2-2b-it',
      '    params: { temperature: 0, max_tokens: 512, top_p: 0.9, seed: 7, stop: [END] }',
      '    price: { input: 0.15, output: 0.60 }',
      '    rpm: 600',
      '    tpm: 200000',
      '    concurrency: 16',
      '  my-script:',
      '    exec: [python3, bot.py]',
      '    timeoutMs: 30000',
      '',
    ].join('\n'),
  );
  assert.deepEqual(modelOwnSettings(config.models.get('small') as never), {
    params: { temperature: 0, maxTokens: 512, topP: 0.9, seed: 7, stop: ['END'] },
    price: { inputPerMillion: 0.15, outputPerMillion: 0.6 },
    requestsPerMinute: 600,
    tokensPerMinute: 200000,
    concurrency: 16,
  });
  assert.deepEqual(modelOwnSettings(config.models.get('my-script') as never), { timeoutMs: 30000 });
});

test('a value the engine refuses is refused in the file, at its line', () => {
  const refused = (line: string): string => {
    try {
      parseConfig('assay.yaml', '/work/assay.yaml', `models:\n  a:\n    module: a.mjs\n    ${line}\n`);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };
  assert.equal(engineSettingsSchema.shape.timeoutMs.safeParse(0).success, false);
  assert.equal(refused('timeoutMs: 0'), 'assay.yaml:4: models.a.timeoutMs: must be at least 1');
  assert.equal(refused('tpm: 2.5'), 'assay.yaml:4: models.a.tpm: expected an integer, got a number');
  assert.equal(refused('price: { input: -1, output: 1 }'), 'assay.yaml:4: models.a.price.input: must be at least 0');
});
