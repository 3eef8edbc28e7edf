import { readdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../version.js';

/** Where the example resources assay ships live: `resources/harm/` at the package root (data, not code). */
export const SHIPPED_HARM_RESOURCES_DIR = path.join(packageRoot, 'resources', 'harm');

/** The shipped resources' folder names (`groundedness`, …), sorted: what `assay list` shows. */
export function shippedHarmResources(): string[] {
  return readdirSync(SHIPPED_HARM_RESOURCES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}
