import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../version.js';
import { harmManifestJsonSchema } from './manifest-schema.js';

/** The published JSON Schema of `manifest.yaml`, committed at the package root so editors can point at it. */
export const HARM_SCHEMA_FILE = path.join(packageRoot, 'schemas', 'harm-resource.schema.json');

/** The file's exact text, generated from the zod schema (a test checks the committed file equals it). */
export function harmSchemaFileText(): string {
  return `${JSON.stringify(harmManifestJsonSchema(), null, 2)}\n`;
}

/** Regenerates the committed file: `npm run schemas`. */
export function writeHarmSchemaFile(): void {
  writeFileSync(HARM_SCHEMA_FILE, harmSchemaFileText());
}
