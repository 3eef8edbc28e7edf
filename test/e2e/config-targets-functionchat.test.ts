import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assay, linesOf } from '../../src/testing/cli-harness.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/**
 * `module` and `exec` targets declared in a config file as the models under test of
 * functionchat/singlecall, scored by exact match alone (`--exact-only`, no judge; issue 23). The
 * first 8 samples all expect `getTodayBoxOfficeRanking({})` (checked below with `assay samples`):
 * singlecall-1-{exact, 4_random, 4_close, 8_random, 8_close}, then singlecall-2-{exact, 4_random,
 * 4_close}.
 *   module: calls it rightly for the five singlecall-1 samples (pass), with a made-up argument for
 *           singlecall-2-exact (not an exact match: fail), and answers in text for the other two
 *           (a call item answered without the call fails without a judge; a verdict, not "no
 *           verdict"). pass 5 of 8, no_verdict 0; by tool list: exact 1/2, 4_random 1/2,
 *           4_close 1/2, 8_random 1/1, 8_close 1/1.
 *   exec:   calls it rightly whenever the tools it is given (OpenAI function shape) hold it: 8 of 8.
 */
let dir: string;
const env = (): NodeJS.ProcessEnv => ({ ASSAY_DATA_DIR: testDataDir(), ASSAY_CONFIG: '', NO_COLOR: '1' });
const CALL = 'getTodayBoxOfficeRanking';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-config-targets-fc-'));
  writeFileSync(
    join(dir, 'agent.mjs'),
    [
      'export default async (request) => {',
      "  if (request.sample_id.startsWith('singlecall-1-')) return { text: '', toolCalls: [{ name: '" + CALL + "', arguments: {} }] };",
      "  if (request.sample_id === 'singlecall-2-exact') return { text: '', toolCalls: [{ name: '" + CALL + "', arguments: { date: 'today' } }] };",
      "  return { text: '박스오피스 순위는 알 수 없어요.' };",
      '};',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'caller.mjs'),
    [
      "let input = '';",
      "process.stdin.on('data', (d) => (input += d));",
      "process.stdin.on('end', () => {",
      '  const request = JSON.parse(input);',
      "  const offered = request.tools.some((tool) => tool.type === 'function' && tool.function.name === '" + CALL + "');",
      "  process.stdout.write(JSON.stringify(offered ? { text: '', toolCalls: [{ name: '" + CALL + "', arguments: '{}' }] } : { text: 'no tool' }));",
      '});',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'assay.yaml'),
    ['models:', '  my-agent:', '    module: ./agent.mjs', '  my-script:', `    exec: [${JSON.stringify(process.execPath)}, caller.mjs]`, '    timeoutMs: 30000', ''].join('\n'),
  );
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('module and exec targets on functionchat/singlecall, tool calls by exact match: metrics equal the hand count', { skip: needsData('functionchat') }, async () => {
  const samples = linesOf((await assay(['samples', 'functionchat/singlecall', '--limit', '8', '--json'], env())).stdout).map(
    (line) => JSON.parse(line) as { id: string; target: { groundTruth: { kind: string; name: string; arguments: unknown } } },
  );
  const ids = ['1-exact', '1-4_random', '1-4_close', '1-8_random', '1-8_close', '2-exact', '2-4_random', '2-4_close'].map((s) => `singlecall-${s}`);
  assert.deepEqual(samples.map((s) => [s.id, s.target.groundTruth.kind, s.target.groundTruth.name, s.target.groundTruth.arguments]), ids.map((id) => [id, 'call', CALL, {}]), 'the samples this hand count assumes');

  const db = join(dir, 'a.db');
  const result = await assay(['run', 'functionchat/singlecall', '--config', join(dir, 'assay.yaml'), '-m', 'my-agent', '-m', 'my-script', '--exact-only', '--limit', '8', '--db', db, '--json'], env());
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout) as { models: Record<string, { metrics: Record<string, unknown> }> };
  const agent = summary.models['my-agent']?.metrics ?? {};
  assert.deepEqual([agent['pass'], agent['pass_rate'], agent['no_verdict'], agent['n']], [5, 5 / 8, 0, 8]);
  assert.deepEqual(agent['by_tools_type'], {
    exact: { pass: 1, pass_rate: 1 / 2, no_verdict: 0, n: 2 },
    '4_random': { pass: 1, pass_rate: 1 / 2, no_verdict: 0, n: 2 },
    '4_close': { pass: 1, pass_rate: 1 / 2, no_verdict: 0, n: 2 },
    '8_random': { pass: 1, pass_rate: 1, no_verdict: 0, n: 1 },
    '8_close': { pass: 1, pass_rate: 1, no_verdict: 0, n: 1 },
  });
  const script = summary.models['my-script']?.metrics ?? {};
  assert.deepEqual([script['pass'], script['pass_rate'], script['no_verdict'], script['n']], [8, 1, 0, 8]);
});
