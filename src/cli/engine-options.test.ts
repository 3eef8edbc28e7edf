import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Command } from 'commander';
import { InputError } from '../core/errors.js';
import type { EngineSettings } from '../core/engine-settings.js';
import { checkEngineSettings, ENGINE_SETTING_KEYS } from '../core/engine-settings-check.js';
import { addEngineOptions, engineFrom, givenEngine, type EngineFlags } from './engine-options.js';

/** The engine options of a command line, parsed as `assay run` parses them. */
function parse(args: readonly string[]): { flags: EngineFlags; given: (name: string) => boolean } {
  const command = addEngineOptions(new Command('run').exitOverride());
  command.parse(args, { from: 'user' });
  return { flags: command.opts<EngineFlags>(), given: (name) => command.getOptionValueSource(name) === 'cli' };
}

const withoutBaseUrl = <T>(body: () => T): T => {
  const saved = process.env['OPENAI_BASE_URL'];
  delete process.env['OPENAI_BASE_URL'];
  try {
    return body();
  } finally {
    if (saved !== undefined) process.env['OPENAI_BASE_URL'] = saved;
  }
};

test('the defaults record the same engine JSON as before the schema: defaults of max-retry-wait and fail-fast left out', () => {
  const engine = withoutBaseUrl(() => engineFrom(parse([]).flags));
  assert.equal(JSON.stringify(engine), '{"concurrency":8,"timeoutMs":120000,"retry":{"maxRetries":6,"baseDelayMs":500,"maxDelayMs":60000},"cache":true}');
});

test('every option given records its setting, in the order runs recorded them before the schema', () => {
  const args = ['-c', '3', '--rpm', '60', '--tpm', '9000', '--timeout', '5000', '--max-retries', '2', '--max-retry-wait', '30', '--no-cache', '--base-url', 'http://127.0.0.1:9/v1', '--price', 'openai:x=1/2', '--max-cost', '2.5', '--no-fail-fast'];
  const engine = withoutBaseUrl(() => engineFrom(parse(args).flags));
  assert.equal(
    JSON.stringify(engine),
    '{"concurrency":3,"timeoutMs":5000,"retry":{"maxRetries":2,"baseDelayMs":500,"maxDelayMs":60000},"maxRetryWaitMs":30000,"cache":false,"requestsPerMinute":60,"tokensPerMinute":9000,' +
      '"openaiBaseURL":"http://127.0.0.1:9/v1","prices":{"openai:x":{"inputPerMillion":1,"outputPerMillion":2}},"maxCostUsd":2.5,"failFast":false}',
  );
});

test('$OPENAI_BASE_URL is the endpoint when --base-url is not given', () => {
  const saved = process.env['OPENAI_BASE_URL'];
  process.env['OPENAI_BASE_URL'] = 'http://127.0.0.1:7/v1';
  try {
    assert.equal(engineFrom(parse([]).flags).openaiBaseURL, 'http://127.0.0.1:7/v1');
  } finally {
    if (saved === undefined) delete process.env['OPENAI_BASE_URL'];
    else process.env['OPENAI_BASE_URL'] = saved;
  }
});

test('a resume takes only the settings given on its command line, a default given explicitly included', () => {
  const none = parse([]);
  assert.deepEqual(givenEngine(none.flags, none.given), {});
  const some = parse(['--max-retry-wait', '120', '--rpm', '5']);
  assert.deepEqual(givenEngine(some.flags, some.given), { maxRetryWaitMs: 120_000, requestsPerMinute: 5 });
  const off = parse(['--no-fail-fast', '--max-retries', '0']);
  assert.deepEqual(givenEngine(off.flags, off.given), { retry: { maxRetries: 0, baseDelayMs: 500, maxDelayMs: 60_000 }, failFast: false });
});

test('every setting of the schema has an option (one row per key)', () => {
  const command = addEngineOptions(new Command('run'));
  const flags = new Set(command.options.map((o) => o.attributeName()));
  for (const name of ['concurrency', 'timeout', 'maxRetries', 'maxRetryWait', 'cache', 'rpm', 'tpm', 'baseUrl', 'apiKeyEnv', 'price', 'maxCost', 'failFast']) assert.ok(flags.has(name), name);
  assert.equal(ENGINE_SETTING_KEYS.length, 11);
});

test('settings a library caller gives are checked against the schema, one line naming the setting; kept as given', () => {
  const good: EngineSettings = { cache: true, concurrency: 2, timeoutMs: 10, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } };
  assert.equal(checkEngineSettings(good), good);
  assert.throws(
    () => checkEngineSettings({ ...good, concurrency: 0 }),
    (error: unknown) => error instanceof InputError && /^engine settings: concurrency: /.test(error.message),
  );
  assert.throws(
    () => checkEngineSettings({ ...good, retry: { maxRetries: -1, baseDelayMs: 1, maxDelayMs: 1 } }),
    (error: unknown) => error instanceof InputError && /^engine settings: retry\.maxRetries: /.test(error.message),
  );
});
