import { InputError } from './errors.js';
import type { EngineSettings } from './engine-settings.js';
import { booleanCheck, intCheck, numberCheck, objectCheck, optionalCheck, recordCheck, stringCheck, type ValueCheck } from './value-checks.js';

// Every run checks its engine settings (a new run's, a resume's, a queue worker's) against their
// schema, `engineSettingsSchema` (engine-settings.ts: the declaration, the type, the config
// file's fields). Loading zod for that costs a run ~14 MB and ~80 ms, so the check is this plain
// mirror of the schema: the same values refused with zod's first message
// (engine-settings-check.test.ts holds it to the schema, value by value).

const price = objectCheck({ inputPerMillion: numberCheck(0), outputPerMillion: numberCheck(0) });

/** One check per key of `engineSettingsSchema`, in its order (the type makes a missing or extra key an error; the test, another order). */
const ENGINE_SETTING_CHECKS: { readonly [K in keyof EngineSettings]-?: ValueCheck } = {
  concurrency: intCheck(1),
  timeoutMs: intCheck(1),
  retry: objectCheck({ maxRetries: intCheck(0), baseDelayMs: numberCheck(0), maxDelayMs: numberCheck(0) }),
  maxRetryWaitMs: optionalCheck(intCheck(0)),
  cache: booleanCheck,
  requestsPerMinute: optionalCheck(intCheck(1)),
  tokensPerMinute: optionalCheck(intCheck(1)),
  openaiBaseURL: optionalCheck(stringCheck),
  prices: optionalCheck(recordCheck(price)),
  maxCostUsd: optionalCheck(numberCheck()),
  failFast: optionalCheck(booleanCheck),
};

const checkSettings = objectCheck(ENGINE_SETTING_CHECKS);

/** The settings' keys in the schema's order: the order a run records them in. */
export const ENGINE_SETTING_KEYS = Object.keys(ENGINE_SETTING_CHECKS) as readonly (keyof EngineSettings)[];

/**
 * Engine settings checked against the schema, returned as given (same object, same key order, so
 * what a run records is what it was given); a wrong one is one `InputError` line naming the
 * setting (`where`: whose settings they are, e.g. "run r1's engine record").
 */
export function checkEngineSettings(engine: EngineSettings, where = 'engine settings'): EngineSettings {
  const issue = checkSettings(engine);
  if (issue === undefined) return engine;
  const path = issue.path.map(String).join('.');
  throw new InputError(`${where}: ${path === '' ? '' : `${path}: `}${issue.message}`);
}
