import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { HARM_SCHEMA_FILE, harmSchemaFileText } from './json-schema-file.js';

test('the committed manifest JSON Schema is the one the zod schema generates', () => {
  let committed = '';
  try {
    committed = readFileSync(HARM_SCHEMA_FILE, 'utf8');
  } catch {
    // missing: the assertion below says how to make it
  }
  assert.ok(committed === harmSchemaFileText(), `${HARM_SCHEMA_FILE} is out of date with src/datasets/harm/manifest-schema.ts; regenerate it with \`npm run schemas\` and commit it`);
});

test('the schema names every top-level key and what is required', () => {
  const schema = JSON.parse(harmSchemaFileText()) as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
  assert.deepEqual(Object.keys(schema.properties), ['name', 'version', 'harmArea', 'description', 'task', 'maxTurns', 'systemUnderTest', 'personas', 'guideline', 'humanLabels', 'leakCheck']);
  assert.deepEqual(schema.required, ['name', 'version', 'harmArea', 'task', 'maxTurns', 'systemUnderTest', 'personas', 'guideline']);
  assert.equal(schema.additionalProperties, false);
});
