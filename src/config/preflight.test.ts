import assert from 'node:assert/strict';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkModelsReady, environmentNeeds, execCommandProblem, missingEnvironment } from './preflight.js';
import { configFolder, EXAMPLE_CONFIG, refusal } from './test-support/config-folder.js';

const config = configFolder().load(EXAMPLE_CONFIG);
const FULL_ENV = { SMALL_KEY: 's', OPENAI_API_KEY: 'o', BOT_TOKEN: 'b', PATH: process.env['PATH'] };

test('a declaration needs its apiKeyEnv and every ${VAR} of its URL and headers', () => {
  const folder = configFolder();
  const own = folder.load(`models:
  a:
    provider: openai
    model: x
    baseUrl: "https://\${HOST}/v1"
    apiKeyEnv: A_KEY
    headers: { X-Org: "\${ORG}", X-Team: evals }
  b:
    http:
      url: "http://127.0.0.1:\${PORT}/chat"
      headers: { Authorization: "Bearer \${TOKEN}" }
      body: '{}'
      output: reply
  c:
    module: ./m.mjs
`);
  const needs = (name: string) => environmentNeeds(own.models.get(name) as NonNullable<ReturnType<typeof own.models.get>>);
  assert.deepEqual(needs('a'), [
    { variable: 'A_KEY', field: ['apiKeyEnv'] },
    { variable: 'HOST', field: ['baseUrl'] },
    { variable: 'ORG', field: ['headers', 'X-Org'] },
  ]);
  assert.deepEqual(needs('b'), [
    { variable: 'PORT', field: ['http', 'url'] },
    { variable: 'TOKEN', field: ['http', 'headers', 'Authorization'] },
  ]);
  assert.deepEqual(needs('c'), []);
});

test('the missing variables of the models a run uses are named, with where the file asks for them; an empty one counts as missing', () => {
  assert.deepEqual(missingEnvironment(config, ['small', 'support-bot', 'openai:gpt-4o'], { SMALL_KEY: '' }), [
    { variable: 'SMALL_KEY', where: 'assay.yaml:6: models.small.apiKeyEnv', field: 'models.small.apiKeyEnv' },
    { variable: 'BOT_TOKEN', where: 'assay.yaml:20: models.support-bot.http.headers.Authorization', field: 'models.support-bot.http.headers.Authorization' },
  ]);
  assert.deepEqual(missingEnvironment(config, ['big'], FULL_ENV), []);
});

test('before a run: one line naming the first missing variable and every other one', () => {
  assert.equal(
    refusal(() => checkModelsReady(config, ['small', 'big', 'support-bot'], { PATH: process.env['PATH'] })).message,
    'assay.yaml:6: models.small.apiKeyEnv: environment variable SMALL_KEY is not set (also: OPENAI_API_KEY for models.big.apiKeyEnv, BOT_TOKEN for models.support-bot.http.headers.Authorization)',
  );
  // Only the models the run names are checked: big's key is not needed for a run of small.
  checkModelsReady(config, ['small', 'openai:gpt-4o'], { SMALL_KEY: 'k' });
});

test('an exec command is looked for as the program will be run: a path beside the file, else on PATH', () => {
  const folder = configFolder();
  const bin = path.join(folder.dir, 'bin');
  mkdirSync(bin);
  const tool = folder.write('bin/my-tool', '#!/bin/sh\necho {}\n');
  chmodSync(tool, 0o755);
  folder.write('not-executable.sh', 'echo {}\n');
  const own = folder.load('models:\n  onpath:\n    exec: [my-tool]\n  relative:\n    exec: [./bin/my-tool, --flag]\n  plain:\n    exec: [./not-executable.sh]\n  gone:\n    exec: [no-such-program-anywhere]\n');
  const problem = (name: string, env: Record<string, string>) => {
    const declaration = own.models.get(name);
    assert.ok(declaration?.kind === 'exec');
    return execCommandProblem(declaration, env);
  };
  assert.equal(problem('onpath', { PATH: bin }), undefined);
  assert.equal(problem('onpath', { PATH: '/nonexistent' }), 'command "my-tool" is not found on PATH');
  assert.equal(problem('relative', { PATH: '' }), undefined);
  assert.equal(problem('plain', {}), `./not-executable.sh is not an executable file (looked at ${path.join(folder.dir, 'not-executable.sh')})`);
  assert.equal(
    refusal(() => checkModelsReady(own, ['gone', 'onpath'], { PATH: bin })).message,
    'assay.yaml:9: models.gone.exec: command "no-such-program-anywhere" is not found on PATH',
  );
});

test('a module file that is not there is refused before the run, by the path it was looked for at', () => {
  const folder = configFolder();
  folder.write('agent.mjs', 'export default async () => ({ text: "hi" });\n');
  const own = folder.load('models:\n  here:\n    module: ./agent.mjs\n  gone:\n    module: ./targets/missing.mjs\n');
  checkModelsReady(own, ['here'], {});
  assert.equal(
    refusal(() => checkModelsReady(own, ['here', 'gone'], {})).message,
    `assay.yaml:5: models.gone.module: ./targets/missing.mjs is not a file (looked at ${path.join(folder.dir, 'targets', 'missing.mjs')})`,
  );
});
