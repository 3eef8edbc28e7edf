import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assay, linesOf } from '../../src/testing/cli-harness.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/**
 * `module` and `exec` targets declared in a config file as the models under test of
 * metatool/awareness through `assay run` (issue 23). The module says "Yes" to the first three
 * samples and "No" to the rest; the exec script (node, run without a shell) always says "No". On
 * the first 8 samples, whose labels alternate yes/no (checked below with `assay samples`), the
 * metrics follow by hand:
 *   module: tp 2 (0, 2), fp 1 (1), fn 2 (4, 6), tn 3 (3, 5, 7): accuracy 5/8, precision 2/3,
 *           recall 2/4, F1 2·(2/3)(1/2)/(2/3 + 1/2) = 4/7;
 *   exec:   tp 0, fp 0, fn 4, tn 4: accuracy 1/2, recall 0.
 */
let dir: string;
const env = (): NodeJS.ProcessEnv => ({ ASSAY_DATA_DIR: testDataDir(), ASSAY_CONFIG: '', NO_COLOR: '1' });

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-config-targets-'));
  writeFileSync(join(dir, 'agent.mjs'), "const YES = new Set(['awareness/0', 'awareness/1', 'awareness/2']);\nexport default async (request) => ({ text: YES.has(request.sample_id) ? 'Yes' : 'No' });\n");
  writeFileSync(join(dir, 'no.mjs'), "let input = '';\nprocess.stdin.on('data', (d) => (input += d));\nprocess.stdin.on('end', () => { JSON.parse(input); process.stdout.write(JSON.stringify({ text: 'No' })); });\n");
  writeFileSync(
    join(dir, 'assay.yaml'),
    ['models:', '  my-agent:', '    module: ./agent.mjs', '  my-script:', `    exec: [${JSON.stringify(process.execPath)}, no.mjs]`, '    timeoutMs: 30000', ''].join('\n'),
  );
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('module and exec targets on metatool/awareness: metrics equal the hand count', { skip: needsData('metatool') }, async () => {
  const samples = linesOf((await assay(['samples', 'metatool/awareness', '--limit', '8', '--json'], env())).stdout).map((line) => (JSON.parse(line) as { id: string; target: boolean }));
  assert.deepEqual(samples.map((s) => [s.id, s.target]), Array.from({ length: 8 }, (_, i) => [`awareness/${i}`, i % 2 === 0]), 'the labels this hand count assumes');

  const db = join(dir, 'a.db');
  const result = await assay(['run', 'metatool/awareness', '--config', join(dir, 'assay.yaml'), '-m', 'my-agent', '-m', 'my-script', '--limit', '8', '--db', db, '--json'], env());
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout) as { models: Record<string, { metrics: Record<string, unknown> }> };
  const agent = summary.models['my-agent']?.metrics ?? {};
  assert.equal(agent['accuracy'], 5 / 8);
  assert.equal(agent['precision'], 2 / 3);
  assert.equal(agent['recall'], 2 / 4);
  assert.ok(Math.abs(Number(agent['f1']) - 4 / 7) < 1e-12, String(agent['f1']));
  assert.deepEqual(agent['confusion'], { tp: 2, fp: 1, tn: 3, fn: 2, no_verdict: 0 });
  const script = summary.models['my-script']?.metrics ?? {};
  assert.equal(script['accuracy'], 1 / 2);
  assert.equal(script['recall'], 0);
  assert.deepEqual(script['confusion'], { tp: 0, fp: 0, tn: 4, fn: 4, no_verdict: 0 });
});

// The config file's preflight comes before the data dir is looked at: these need no data (the
// data dir named here does not exist, and the run is refused for its config all the same).
const noData = (): NodeJS.ProcessEnv => ({ ...env(), ASSAY_DATA_DIR: join(dir, 'no-such-data-dir') });

test('an exec program that does not exist and a module file that does not: one line naming the field, exit 2, nothing recorded', async () => {
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, ['models:', '  gone:', '    exec: [./not-there.sh]', '  lost:', '    module: ./lost.mjs', ''].join('\n'));
  const db = join(dir, 'bad.db');
  const result = await assay(['run', 'metatool/awareness', '--config', bad, '-m', 'gone', '-m', 'lost', '--limit', '2', '--db', db], noData());
  assert.equal(result.code, 2, result.stderr);
  assert.equal(linesOf(result.stderr).length, 1, result.stderr);
  assert.match(result.stderr, /bad\.yaml:3: models\.gone\.exec: \.\/not-there\.sh is not an executable file .*\(also: the file for models\.lost\.module\)/);
  assert.ok(!(await import('node:fs')).existsSync(db), 'no store was made');
});

test('a bad config file is told before the data dir: a missing variable, an unknown name, a body that is not JSON', async () => {
  const file = join(dir, 'preflight.yaml');
  const write = (lines: readonly string[]): void => writeFileSync(file, [...lines, ''].join('\n'));
  const db = join(dir, 'preflight.db');
  const refused = async (models: readonly string[]): Promise<string> => {
    const result = await assay(['run', 'metatool/awareness', '--config', file, ...models.flatMap((m) => ['-m', m]), '--limit', '2', '--db', db], noData());
    assert.equal(result.code, 2, result.stderr);
    assert.equal(linesOf(result.stderr).length, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /data dir/);
    return result.stderr;
  };
  write(['models:', '  small:', '    provider: openai', '    model: m', '    baseUrl: http://127.0.0.1:9/v1', '    apiKeyEnv: ASSAY_TEST_UNSET_KEY']);
  assert.match(await refused(['small']), /preflight\.yaml:6: models\.small\.apiKeyEnv: environment variable ASSAY_TEST_UNSET_KEY is not set/);
  assert.match(await refused(['smal']), /model "smal" is not declared in .*preflight\.yaml.*small/);
  write(['models:', '  bot:', '    http:', '      url: http://127.0.0.1:9/chat', '      body: \'{"m": "{{ prompt }}"}\'', '      output: reply']);
  assert.match(await refused(['bot']), /preflight\.yaml:5: models\.bot\.http\.body: does not render to JSON for an example request/);
  // Without the config's problems, the data dir is what is refused (so the order above is what was tested).
  write(['models:', '  small:', '    provider: openai', '    model: m', '    baseUrl: http://127.0.0.1:9/v1']);
  const data = await assay(['run', 'metatool/awareness', '--config', file, '-m', 'small', '--limit', '2', '--db', db], noData());
  assert.equal(data.code, 2, data.stderr);
  assert.match(data.stderr, /data dir .*no-such-data-dir.* does not exist/);
  assert.ok(!(await import('node:fs')).existsSync(db), 'no store was made');
});
