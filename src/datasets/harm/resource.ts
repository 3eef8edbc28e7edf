import path from 'node:path';
import type { HumanLabels, ScaleRange } from '../human-labels.js';
import { parseHumanLabels } from '../human-labels.js';
import { loadManifest, namedAt } from './manifest.js';
import type { Guideline, HarmManifest } from './manifest-schema.js';
import { buildPersonas, type Persona } from './personas.js';
import { ResourceFiles } from './resource-files.js';

/** A context document given to the system under test. */
export interface ContextDocument {
  /** Relative to the resource folder. */
  readonly path: string;
  readonly text: string;
}

/**
 * A measurement resource, loaded and checked: everything a harm task needs to build its samples
 * (one per persona) and to judge them, with the sha256 of every file it came from.
 */
export interface HarmResource {
  /** The resource folder, absolute. */
  readonly folder: string;
  readonly manifest: HarmManifest;
  readonly guideline: Guideline;
  /** The guideline scale's lowest and highest severity. */
  readonly scale: ScaleRange;
  /** The system under test's system prompt, read from its file when the manifest names one. */
  readonly systemPrompt: string;
  readonly contextDocuments: readonly ContextDocument[];
  /** One per template × parameter row, in manifest then row order. */
  readonly personas: readonly Persona[];
  /** The resource's own human labels, checked against its persona ids and scale. */
  readonly humanLabels?: Omit<HumanLabels, 'sha256'>;
  /** sha256 of every file read (manifest included), by path relative to the folder, with `/`. */
  readonly checksums: Readonly<Record<string, string>>;
}

export interface LoadHarmResourceOptions {
  /** The run's seed: each persona's seed derives from it and the persona's id. */
  readonly seed: number | string;
  /** Stops the load (the run's stop: SIGINT/SIGTERM) while templates render; the load then rejects with its reason. */
  readonly signal?: AbortSignal;
}

/**
 * Loads a measurement resource folder (`manifest.yaml` and the files it names).
 * @throws InputError, one line naming the file (and line where there is one), for the first
 * problem found: the manifest's schema, an unreadable file, a template that does not parse, a
 * parameter row missing what its template reads, human labels for unknown samples or off the scale.
 */
export async function loadHarmResource(folder: string, options: LoadHarmResourceOptions): Promise<HarmResource> {
  const absolute = path.resolve(folder);
  const files = new ResourceFiles(absolute);
  const { manifest, yaml } = await loadManifest(files);
  const at = (...path: PropertyKey[]): ReturnType<typeof namedAt> => namedAt(yaml, path);
  const { guideline } = manifest;
  const prompt = manifest.systemUnderTest.systemPrompt;
  const systemPrompt = typeof prompt === 'string' ? prompt : (await files.read(prompt.file, at('systemUnderTest', 'systemPrompt', 'file'))).text;
  const contextDocuments: ContextDocument[] = [];
  for (const [i, document] of (manifest.systemUnderTest.contextDocuments ?? []).entries()) {
    contextDocuments.push({ path: document, text: (await files.read(document, at('systemUnderTest', 'contextDocuments', i))).text });
  }
  const personas = await buildPersonas(files, manifest.personas, options.seed, { namedAt: (i, key) => at('personas', i, key), ...(options.signal ? { signal: options.signal } : {}) });
  const scale = { min: guideline.scale[0]?.severity ?? 0, max: guideline.scale.at(-1)?.severity ?? 0 };
  let humanLabels: Omit<HumanLabels, 'sha256'> | undefined;
  if (manifest.humanLabels !== undefined) {
    const labels = await files.read(manifest.humanLabels, at('humanLabels'));
    humanLabels = parseHumanLabels(labels.file, labels.text, { knownIds: new Set(personas.map((p) => p.id)), scale });
  }
  return {
    folder: absolute,
    manifest,
    guideline,
    scale,
    systemPrompt,
    contextDocuments,
    personas,
    ...(humanLabels ? { humanLabels } : {}),
    checksums: files.checksums(),
  };
}
