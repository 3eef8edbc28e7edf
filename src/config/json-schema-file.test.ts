import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CONFIG_SCHEMA_FILE, configSchemaFileText } from './json-schema-file.js';

test('the committed config JSON Schema is the one the zod schema generates', () => {
  let committed = '';
  try {
    committed = readFileSync(CONFIG_SCHEMA_FILE, 'utf8');
  } catch {
    // missing: the assertion below says how to make it
  }
  assert.ok(committed === configSchemaFileText(), `${CONFIG_SCHEMA_FILE} is out of date with src/config/ (config-file-schema.ts); regenerate it with \`npm run schemas\` and commit it`);
});

test('the schema says what an editor needs: names without ":", four strict kinds, each with its required keys', () => {
  type Entry = { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
  const schema = JSON.parse(configSchemaFileText()) as {
    required: string[];
    additionalProperties: boolean;
    properties: { models: { propertyNames: { pattern: string }; additionalProperties: { anyOf: Entry[] } } };
  };
  assert.deepEqual(schema.required, ['models']);
  assert.equal(schema.additionalProperties, false);
  const names = new RegExp(schema.properties.models.propertyNames.pattern);
  assert.ok(names.test('support-bot') && !names.test('openai:gpt-4o'));
  const kinds = schema.properties.models.additionalProperties.anyOf;
  assert.deepEqual(kinds.map((kind) => kind.required), [['provider', 'model'], ['http'], ['module'], ['exec']]);
  assert.ok(kinds.every((kind) => kind.additionalProperties === false));
  assert.deepEqual(Object.keys(kinds[0]?.properties ?? {}), ['provider', 'model', 'baseUrl', 'apiKeyEnv', 'headers', 'params', 'price', 'rpm', 'tpm', 'concurrency', 'timeoutMs']);
});

test('the schema carries suites: strict, with models and tasks required and the gate keys an editor completes', () => {
  type Node = { properties: Record<string, Node>; required?: string[]; additionalProperties?: Node | boolean; items?: Node; enum?: string[] };
  const schema = JSON.parse(configSchemaFileText()) as { properties: { suites: Node } };
  const suite = schema.properties.suites.additionalProperties as Node;
  assert.deepEqual(suite.required, ['models', 'tasks']);
  assert.equal(suite.additionalProperties, false);
  const entry = suite.properties['tasks']?.items as Node;
  assert.deepEqual(entry.required, ['task']);
  const gate = entry.properties['gates']?.additionalProperties as Node;
  assert.deepEqual(Object.keys(gate.properties), ['min', 'max', 'require']);
  assert.deepEqual(gate.properties['require']?.enum, ['confident', 'non-inferior']);
  assert.deepEqual(suite.properties['regression']?.required, ['baseline', 'margin']);
});
