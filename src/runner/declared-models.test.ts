import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../config/load-config.js';
import type { ProvenanceDetails, RunRecord } from '../store/records.js';
import { checkDeclarationsUnchanged, declarationsToRecord, isDeclaredName, runModelIds } from './declared-models.js';
import { describeStop, recordedModels } from '../analysis/recorded-run.js';

const file = (temperature: number): ReturnType<typeof parseConfig> =>
  parseConfig(
    'assay.yaml',
    '/work/assay.yaml',
    ['models:', '  small:', '    provider: openai', '    model: m', '    baseUrl: http://127.0.0.1:8000/v1', '    apiKeyEnv: SMALL_KEY', `    params: { temperature: ${temperature} }`, '    concurrency: 4', ''].join('\n'),
  );
const ENV = { SMALL_KEY: 'a-secret-key-value' };

function runWith(provenance: ProvenanceDetails): RunRecord {
  return { id: 'r1', models: ['small', 'openai:gpt-4o-mini'], judge: null, engine: {}, provenance, events: [] } as unknown as RunRecord;
}

test('names without ":" are declared; ids with one are not, and need no file', () => {
  assert.equal(isDeclaredName('small'), true);
  assert.equal(isDeclaredName('openai:gpt-4o'), false);
  assert.equal(declarationsToRecord(['openai:gpt-4o', 'baseline:lexical'], undefined, ENV), undefined);
  assert.deepEqual(runModelIds({ models: ['a', 'b'], judge: { model: 'a' } as RunRecord['judge'], userModel: 'c' }), ['a', 'b', 'c']);
});

test('a run records each declared model without its key, with a hash that ignores how hard it may be called', () => {
  const recorded = declarationsToRecord(['small', 'openai:gpt-4o'], file(0), ENV);
  assert.deepEqual(Object.keys(recorded ?? {}), ['small']);
  assert.equal(recorded?.['small']?.declaration['apiKeyEnv'], 'SMALL_KEY');
  assert.ok(!JSON.stringify(recorded).includes(ENV.SMALL_KEY));
  const again = declarationsToRecord(['small'], parseConfig('assay.yaml', '/work/assay.yaml', ['models:', '  small:', '    provider: openai', '    model: m', '    baseUrl: http://127.0.0.1:8000/v1', '    apiKeyEnv: SMALL_KEY', '    params: { temperature: 0 }', '    concurrency: 32', ''].join('\n')), ENV);
  assert.equal(again?.['small']?.hash, recorded?.['small']?.hash, 'concurrency is not part of the identity');
});

test('a declared name is refused without a file, with a missing variable, or when it is not declared', () => {
  assert.throws(() => declarationsToRecord(['small'], undefined, ENV), /no config file declares small: give the same file \(--config FILE/);
  assert.throws(() => declarationsToRecord(['small'], file(0), {}), /^InputError: assay\.yaml:6: models\.small\.apiKeyEnv: environment variable SMALL_KEY is not set$/);
  assert.throws(() => declarationsToRecord(['big'], file(0), ENV), /model "big" is not declared in assay\.yaml: it declares small/);
  assert.equal(declarationsToRecord(['small'], file(0), undefined)?.['small']?.declaration['kind'], 'provider', 'without an environment (a submitter), no variable is checked');
});

test('a session continuing a run: the same declaration passes, a changed one is refused naming the field, no file is refused', () => {
  const run = runWith({ declarations: declarationsToRecord(['small'], file(0), ENV) ?? {} });
  assert.equal(Object.keys(recordedModels(run)).length, 1);
  checkDeclarationsUnchanged(run, file(0), ENV, 'the resume');
  assert.throws(() => checkDeclarationsUnchanged(run, file(0.7), ENV, 'the resume'), /^InputError: assay\.yaml:2: models\.small: model "small": the resume declares it differently from the run's record: params\.temperature was 0, is 0\.7;/);
  assert.throws(() => checkDeclarationsUnchanged(run, undefined, ENV, 'the resume'), /run r1 was made with a config file declaring small: give the same file/);
  assert.throws(() => checkDeclarationsUnchanged(runWith({}), file(0), ENV, 'the resume'), /run r1 does not record how small was declared/);
});

test('an auth stop of a declared model names its key variable; other stops read as before', () => {
  const run = { provenance: { declarations: declarationsToRecord(['small'], file(0), ENV) ?? {} } };
  const stop = { actor: 'small', role: 'test' as const, kind: 'auth', message: '401 wrong key', count: 1 };
  assert.match(describeStop(stop, 'r1', run), /To go on: fix the key in SMALL_KEY \(models\.small\.apiKeyEnv of the config file\) or its permissions, then assay resume r1$/);
  const plain = { ...stop, actor: 'openai:gpt-4o' };
  assert.equal(describeStop(plain, 'r1', run), describeStop(plain, 'r1'));
  assert.match(describeStop(plain, 'r1'), /fix the API key \(OPENAI_API_KEY or --api-key-env/);
});

test('an http body is checked once: at load when the file was loaded with the check, else when its target is built, with the same message at file:line', async () => {
  const { bodyTemplateProblem } = await import('../models/providers/http/body-template.js');
  const { buildDeclaredModel } = await import('./declared-models.js');
  const text = ['models:', '  bot:', '    http:', '      url: http://127.0.0.1:9/chat', '      body: \'{"m": "{{ prompt }}"}\'', '      output: reply', ''].join('\n');
  const expected = `assay.yaml:5: models.bot.http.body: ${bodyTemplateProblem('{"m": "{{ prompt }}"}', 'bot')}`;
  // The CLI's way: refused at load.
  assert.throws(() => parseConfig('assay.yaml', '/work/assay.yaml', text, { checkBodyTemplate: bodyTemplateProblem }), (e: unknown) => (e as Error).message === expected);
  // Loaded without the check: the target checks it, naming the same place.
  await assert.rejects(buildDeclaredModel('bot', parseConfig('assay.yaml', '/work/assay.yaml', text), {}, 1), (e: unknown) => (e as Error).message === expected);
  // Loaded with a check (here one that lets it through): the target does not check it again.
  let calls = 0;
  const once = parseConfig('assay.yaml', '/work/assay.yaml', text, { checkBodyTemplate: () => (calls++, undefined) });
  const built = await buildDeclaredModel('bot', once, {}, 1);
  assert.equal(calls, 1);
  assert.equal(built.provider.id, 'bot');
  await built.provider.close?.();
});
