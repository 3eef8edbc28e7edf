import { z } from 'zod';
import { MODEL_ENTRY, MODEL_NAME } from './model-entry-schema.js';
import { SUITES } from './suite-schema.js';

/** The whole config file: its top-level keys, each strict (the loader reads them one by one for file:line messages). */
export const CONFIG_FILE_SCHEMA = z.strictObject({
  models: z.record(MODEL_NAME, MODEL_ENTRY).describe('Named models and applications; the name is the model id everywhere (-m NAME, --judge NAME, the store, reports).'),
  suites: SUITES.optional(),
});

export type ConfigFile = z.output<typeof CONFIG_FILE_SCHEMA>;

/** The published JSON Schema of a config file (what users' editors validate against). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(CONFIG_FILE_SCHEMA, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    $schema: schema['$schema'],
    title: 'assay config file (assay.yaml)',
    description: 'Models and applications declared by name, and suites of tasks with gates. See docs/targets.md and docs/suites.md.',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}
