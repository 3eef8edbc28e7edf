import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../version.js';
import { configJsonSchema } from './config-file-schema.js';

/** The published JSON Schema of `assay.yaml`, committed at the package root so editors can point at it. */
export const CONFIG_SCHEMA_FILE = path.join(packageRoot, 'schemas', 'assay-config.schema.json');

/** The file's exact text, generated from the zod schema (a test checks the committed file equals it). */
export function configSchemaFileText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

/** Regenerates the committed file: `npm run schemas`. */
export function writeConfigSchemaFile(): void {
  writeFileSync(CONFIG_SCHEMA_FILE, configSchemaFileText());
}
