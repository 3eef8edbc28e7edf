import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEngineSettings, ENGINE_SETTING_KEYS } from './engine-settings-check.js';
import { engineSettingsSchema, type EngineSettings } from './engine-settings.js';
import { inspect } from 'node:util';

// The plain check a run does must refuse what the schema refuses, with the message the schema's
// first issue gives (what `checkEngineSettings` said when it ran the schema), and pass the rest.

/** What the check said when it ran the schema: the settings, or the message it threw. */
function bySchema(engine: unknown, where = 'engine settings'): string {
  const checked = engineSettingsSchema.safeParse(engine);
  if (checked.success) return 'passes';
  const issue = checked.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  return `${where}: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'not valid'}`;
}

function byCheck(engine: unknown): string {
  try {
    assert.equal(checkEngineSettings(engine as EngineSettings), engine);
    return 'passes';
  } catch (error) {
    return (error as Error).message;
  }
}

class Named {
  readonly inputPerMillion = 1;
  readonly outputPerMillion = 1;
}
const anonymous = new (class {})();
const VALUES: readonly unknown[] = [
  undefined, null, true, false, '', 'x', 'http://127.0.0.1:8/v1', 0, -0, 1, 2, -1, 0.5, 1.5, -1.5, 1e-9, 1e300, -1e300, NaN, Infinity, -Infinity,
  Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER - 1, 2 ** 53 + 2,
  [], [1], {}, { inputPerMillion: 1, outputPerMillion: 2 }, { inputPerMillion: -1, outputPerMillion: 2 }, { inputPerMillion: 1 }, Object.create(null),
  1n, Symbol('s'), () => 1, new Date(0), new Map(), new Set(), /x/, new Number(1), new String('x'), new Boolean(true), new Named(), anonymous, Promise.resolve(),
];

const GOOD = { concurrency: 2, timeoutMs: 10, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true };

test('the keys are the schema\'s, in its order (the order a run records them in)', () => {
  assert.deepEqual(ENGINE_SETTING_KEYS, Object.keys(engineSettingsSchema.shape));
});

test('every value at every setting: refused as the schema refuses it, with its message; passed as it passes', () => {
  let refused = 0;
  const cases: unknown[] = [undefined, null, 1, 'x', [], GOOD, {}, { ...GOOD, unknownKey: 'kept, as the schema strips it' }];
  for (const key of [...ENGINE_SETTING_KEYS, 'retry.maxRetries', 'retry.baseDelayMs', 'retry.maxDelayMs', 'prices.m', 'prices.m.inputPerMillion', 'prices.m.outputPerMillion']) {
    for (const value of VALUES) {
      const [head = '', sub, leaf] = key.split('.');
      if (sub === undefined) cases.push({ ...GOOD, [head]: value });
      else if (head === 'retry') cases.push({ ...GOOD, retry: { ...GOOD.retry, [sub]: value } });
      else if (leaf === undefined) cases.push({ ...GOOD, prices: { a: { inputPerMillion: 1, outputPerMillion: 1 }, [sub]: value } });
      else cases.push({ ...GOOD, prices: { [sub]: { inputPerMillion: 1, outputPerMillion: 1, [leaf]: value } } });
    }
  }
  // Two wrong settings: the first in the schema's order is named.
  cases.push({ ...GOOD, cache: 'yes', concurrency: 0 }, { ...GOOD, failFast: 1, retry: {} }, { timeoutMs: 'x' });
  // A record's symbol key, a non-enumerable key and `__proto__` (skipped, as zod skips them).
  const odd: Record<PropertyKey, unknown> = {};
  odd[Symbol('key')] = { inputPerMillion: 1, outputPerMillion: 1 };
  const hidden = Object.defineProperty({}, 'm', { value: 'not a price', enumerable: false });
  cases.push({ ...GOOD, prices: odd }, { ...GOOD, prices: hidden }, { ...GOOD, prices: JSON.parse('{"__proto__": 1}') as unknown });
  for (const engine of cases) {
    const expected = bySchema(engine);
    if (expected !== 'passes') refused++;
    assert.equal(byCheck(engine), expected, inspect(engine));
  }
  assert.ok(refused > cases.length / 2);
});

test('a wrong setting is one line naming it (the caller says whose settings they are)', () => {
  assert.throws(() => checkEngineSettings({ ...GOOD, concurrency: 0 }, "run r1's engine settings"), {
    message: "run r1's engine settings: concurrency: Too small: expected number to be >=1",
  });
});
