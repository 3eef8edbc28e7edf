import { InputError, describeError, rngFor } from '../../core/index.js';
import type { PersonaSpec } from './manifest-schema.js';
import { loadParameterSet } from './parameter-set.js';
import { compileTemplate } from './persona-template.js';
import type { NamedAt, ResourceFiles } from './resource-files.js';
import { TemplateBoundError, TemplateRenderer, TemplateTotalTimeError, type TimeBounds } from './template-renderer.js';

/**
 * One persona = one sample: a template filled with one parameter row. The simulated user is given
 * `text`; the rest is what a run records so that a conversation can be traced to exactly what
 * started it.
 */
export interface Persona {
  /** `<persona id>/<row id>`, stable across runs: pairs two runs on the same resource. */
  readonly id: string;
  /** The persona template's id in the manifest. */
  readonly templateId: string;
  /** The parameter row's id (its `id`, else its 1-based position). */
  readonly rowId: string;
  /** The rendered persona. */
  readonly text: string;
  /** The template file, relative to the resource folder. */
  readonly template: string;
  /** sha256 of the template file, recorded with every conversation it starts. */
  readonly templateSha256: string;
  /** The parameter file, relative to the resource folder, and the row's line in it. */
  readonly parametersFile: string;
  readonly parametersLine: number;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** This conversation's seed: derived from the run's seed and the persona id only, so it never shifts when personas are added or reordered. */
  readonly seed: number;
}

/**
 * A persona's seed: a 32-bit unsigned integer from the run's seed and the persona's id (through
 * `rngFor`, the one derivation of seeded choices in assay).
 */
export function personaSeed(runSeed: number | string, personaId: string): number {
  return Math.floor(rngFor(runSeed, `harm-persona:${personaId}`).next() * 2 ** 32);
}

/**
 * Every persona of the manifest's templates × their parameter rows, in manifest then row order.
 * `namedAt` says where the manifest names a persona's files, for refusals of those files. Templates
 * render in a worker thread within `TEMPLATE_BOUNDS`; `signal` (the run's stop) ends a rendering.
 * @throws InputError: a template that does not parse (template file and line); a row missing a
 * parameter the template reads, or holding it empty (parameter file and the row's line); a
 * template that fails to render with a row (parameter file and line, the engine's reason); a
 * rendering past a bound (the template file, the row and the bound); renderings that together
 * pass the total time bound (the template file, the bound, how many were rendered). The signal's
 * reason once it aborts.
 */
export async function buildPersonas(
  files: ResourceFiles,
  specs: readonly PersonaSpec[],
  runSeed: number | string,
  options: {
    readonly namedAt?: (index: number, key: 'template' | 'parameters') => NamedAt;
    readonly signal?: AbortSignal;
    /** Tighter time bounds than `TEMPLATE_BOUNDS` (tests). */
    readonly bounds?: Partial<TimeBounds>;
  } = {},
): Promise<Persona[]> {
  const renderer = new TemplateRenderer(options.signal, options.bounds);
  try {
    return await renderPersonas(files, specs, runSeed, renderer, options);
  } finally {
    await renderer.close();
  }
}

async function renderPersonas(
  files: ResourceFiles,
  specs: readonly PersonaSpec[],
  runSeed: number | string,
  renderer: TemplateRenderer,
  { namedAt, signal }: Parameters<typeof buildPersonas>[3] & object,
): Promise<Persona[]> {
  const personas: Persona[] = [];
  for (const [i, spec] of specs.entries()) {
    const source = await files.read(spec.template, namedAt?.(i, 'template'));
    const template = compileTemplate(source.file, source.text);
    const set = await loadParameterSet(files, spec.parameters, namedAt?.(i, 'parameters'));
    // Rows up to the first one missing a parameter are rendered, all sent at once (the worker takes
    // them in order), then read in order: the first problem in file order is the one told.
    const firstMissing = set.rows.findIndex((row) => template.variables.some((name) => isBlank(row.values[name])));
    const renderable = firstMissing === -1 ? set.rows : set.rows.slice(0, firstMissing);
    const rendering = renderable.map((row) => renderer.render(template.source, row.values));
    for (const pending of rendering) pending.catch(() => undefined);
    for (const [r, row] of set.rows.entries()) {
      const where = { file: set.file, line: row.line };
      const missing = template.variables.find((name) => isBlank(row.values[name]));
      if (missing !== undefined) {
        const why = row.values[missing] === undefined || row.values[missing] === null ? `has no "${missing}"` : `has "${missing}" empty`;
        throw new InputError(`${set.file}:${row.line}: row "${row.id}" ${why}, which ${spec.template} uses`, where);
      }
      let text: string;
      try {
        text = await (rendering[r] as Promise<string>);
      } catch (error) {
        if (error instanceof TemplateTotalTimeError) {
          throw new InputError(
            `${source.file}: refused: rendering the resource's personas took longer than the ${error.totalTimeMs / 1000} s they may take together ` +
              `(each within its own bound): ${personas.length} rendered, ${r} of them of this template's ${set.rows.length} rows; stopped at row "${row.id}" (${set.file}:${row.line})`,
            { file: source.file },
          );
        }
        if (error instanceof TemplateBoundError) {
          throw new InputError(`${source.file}: refused: rendering it with row "${row.id}" (${set.file}:${row.line}): ${error.message}`, { file: source.file });
        }
        if (signal?.aborted) throw error;
        throw new InputError(`${set.file}:${row.line}: ${spec.template} does not render with row "${row.id}" (${describeError(error)})`, where);
      }
      const id = `${spec.id}/${row.id}`;
      personas.push({
        id,
        templateId: spec.id,
        rowId: row.id,
        text,
        template: spec.template,
        templateSha256: source.sha256,
        parametersFile: spec.parameters,
        parametersLine: row.line,
        parameters: row.values,
        seed: personaSeed(runSeed, id),
      });
    }
  }
  return personas;
}

/** Missing, null, or only whitespace: a hole in the persona the engine would fill with nothing. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
