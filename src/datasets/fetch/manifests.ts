// The one list of the datasets assay downloads and pins: `assay data fetch|verify|path`, the
// pinned sums a run's data is checked against (datasets/pinned.ts) and the tests' data all read
// it. A new dataset is its manifest (beside its reader, datasets/<name>/manifest.ts) and a line here.
import { InputError } from '../../core/errors.js';
import { FUNCTIONCHAT_MANIFEST } from '../functionchat/manifest.js';
import { METATOOL_MANIFEST } from '../metatool/manifest.js';
import type { DatasetManifest } from './manifest.js';

/** Every dataset assay can download, the first the default of `assay data fetch|verify`. */
export const MANIFESTS: readonly DatasetManifest[] = [METATOOL_MANIFEST, FUNCTIONCHAT_MANIFEST];

/** The datasets' names, in {@link MANIFESTS}' order. */
export const DATASET_NAMES: readonly string[] = MANIFESTS.map((manifest) => manifest.dataset);

/** The manifest of a dataset assay knows how to fetch. */
export function getManifest(name: string): DatasetManifest {
  const manifest = MANIFESTS.find((m) => m.dataset === name);
  if (!manifest) {
    throw new InputError(`unknown dataset "${name}"; known datasets: ${DATASET_NAMES.join(', ')}`);
  }
  return manifest;
}
