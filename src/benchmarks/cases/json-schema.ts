import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** Checks a value against a compiled schema: null when it is valid, else why not in one line. */
export type SchemaCheck = (value: unknown) => string | null;

/** The drafts understood, by their `$schema` URI (without a trailing `#`); no `$schema` is draft-07. */
const DRAFTS: Readonly<Record<string, 'draft-07' | '2019-09' | '2020-12'>> = {
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
};

/**
 * Ajv's options: `strictSchema` refuses a keyword no draft has (so an object that is not a JSON
 * Schema, or a typo such as `"typ"`, is an error, not a schema that accepts everything);
 * `validateFormats: false` because formats (`email`, `date-time`) need a further package: they
 * are not checked, and the docs say so. No logger: the warnings of the looser checks would be
 * printed in the middle of a run's progress.
 */
const OPTIONS = { strictSchema: true, strictNumbers: true, strictTypes: false, strictTuples: false, strictRequired: false, validateFormats: false, allErrors: true, logger: false } as const;

/**
 * Compiles a JSON Schema (draft-07 — the default when `$schema` is absent — 2019-09 or 2020-12)
 * into a check. Each schema gets its own validator instance, so two case files' `$id`s never clash.
 * @throws Error saying why the value is not a JSON Schema (the caller names the file and line).
 */
export function compileJsonSchema(schema: unknown): SchemaCheck {
  if (typeof schema !== 'boolean' && (schema === null || typeof schema !== 'object' || Array.isArray(schema))) {
    throw new Error(`a JSON Schema is an object or a boolean, not ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}`);
  }
  const declared = typeof schema === 'object' ? (schema as Record<string, unknown>)['$schema'] : undefined;
  if (declared !== undefined && typeof declared !== 'string') throw new Error('its $schema is not a string');
  const draft = declared === undefined ? 'draft-07' : DRAFTS[declared.replace(/#$/, '')];
  if (draft === undefined) throw new Error(`$schema ${JSON.stringify(declared)} is not a draft assay validates (${Object.keys(DRAFTS).join(', ')})`);
  const ajv = draft === '2020-12' ? new Ajv2020(OPTIONS) : draft === '2019-09' ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
  if (!ajv.validateSchema(schema as object | boolean)) throw new Error(`it is not a valid ${draft} JSON Schema (${describeErrors(ajv.errors, '(the schema)')})`);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema as object | boolean);
  } catch (error) {
    throw new Error(`it is not a usable JSON Schema (${(error as Error).message})`);
  }
  return (value) => (validate(value) ? null : describeErrors(validate.errors, '(the answer)'));
}

/** Ajv's errors in one line: `/orderId must be string; must have required property 'days'`. */
function describeErrors(errors: readonly ErrorObject[] | null | undefined, root: string): string {
  if (!errors || errors.length === 0) return 'no reason given';
  const shown = errors.slice(0, 3).map((e) => `${e.instancePath || root} ${e.message ?? 'is invalid'}`.trim());
  return errors.length > 3 ? `${shown.join('; ')}; and ${errors.length - 3} more` : shown.join('; ');
}
