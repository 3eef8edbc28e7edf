import { z } from 'zod';

/**
 * The manifest of a measurement resource (`manifest.yaml`), as a zod schema: the one definition
 * the loader validates with and `schemas/harm-resource.schema.json` is generated from. Keys are
 * documented in docs/harm.md; every object is strict, so a misspelt key is an error rather than
 * a setting silently ignored.
 */

/** Ids become parts of sample ids (`<persona id>/<row id>`) and file-friendly labels. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const idSchema = z.string().regex(ID, 'must start with a letter or digit and hold only letters, digits, ".", "_" and "-"');

/** A file of the resource: relative to its folder and inside it, so the folder is self-contained and checksums are keyed by these paths. */
const resourcePath = z
  .string()
  .min(1)
  .refine((p) => !/^([/\\]|[A-Za-z]:)/.test(p) && !p.split(/[/\\]/).includes('..'), 'must be a path relative to the resource folder, inside it (no leading "/", no "..")')
  .describe('A file path relative to the resource folder (no leading "/", no "..").');

const nonEmpty = z.string().trim().min(1);

export const SCALE_LEVEL_SCHEMA = z.strictObject({
  severity: z.int().describe('The level: an integer; the scale\'s levels are contiguous (1, 2, 3, …).'),
  label: nonEmpty.describe('A short name for the level ("fully grounded").'),
  example: nonEmpty.describe('One example of an answer or conversation at this level, shown to the judge.'),
});

export const GUIDELINE_SCHEMA = z
  .strictObject({
    harmDefinition: nonEmpty.describe('What the harm is, in the expert\'s words; the judge reads it first.'),
    instructions: nonEmpty.optional().describe('Anything else the judge must know to annotate (what to look at, what to ignore).'),
    scale: z.array(SCALE_LEVEL_SCHEMA).min(2).describe('The severity scale, lowest level first, one example per level.'),
    defectThreshold: z.int().describe('The level at which a conversation counts as a defect; one of the scale\'s levels.'),
    defectWhen: z
      .enum(['at-least', 'at-most'])
      .default('at-least')
      .describe('"at-least": severity ≥ threshold is a defect (higher is worse, e.g. leakage). "at-most": severity ≤ threshold is a defect (higher is better, e.g. groundedness 1–5).'),
  })
  .superRefine((guideline, ctx) => {
    const first = guideline.scale[0]?.severity ?? 0;
    guideline.scale.forEach((level, i) => {
      if (level.severity !== first + i) {
        ctx.addIssue({ code: 'custom', path: ['scale', i, 'severity'], message: `expected severity ${first + i}: the scale's levels must be contiguous integers, lowest first` });
      }
    });
    const last = first + guideline.scale.length - 1;
    if (guideline.defectThreshold < first || guideline.defectThreshold > last) {
      ctx.addIssue({ code: 'custom', path: ['defectThreshold'], message: `${guideline.defectThreshold} is outside the scale (${first}–${last})` });
    }
  });

export const PERSONA_SCHEMA = z.strictObject({
  id: idSchema.describe('The persona template\'s id; a sample\'s id is `<id>/<row id>`.'),
  template: resourcePath.describe('The persona template (Jinja) the simulated user is given.'),
  parameters: resourcePath.describe('The parameter set that fills the template: a YAML list of mappings or a CSV file with a header; one row = one persona.'),
  description: nonEmpty.optional().describe('What this persona tries, for people reading the resource.'),
});

export const HARM_MANIFEST_SCHEMA = z
  .strictObject({
    name: idSchema.describe('The resource\'s name (`system-prompt-leakage`).'),
    version: z.int().min(1).describe('Bump it whenever a template, a parameter, the guideline or the system under test changes, so runs on different versions are not compared as if equal.'),
    harmArea: nonEmpty.describe('The harm measured, as reports group it ("system-prompt leakage").'),
    description: nonEmpty.optional().describe('A few sentences for people reading the resource.'),
    task: z
      .enum(['conversation', 'qa-over-context', 'summarization'])
      .describe('What the system under test is asked to do: converse, answer questions over its context documents, or summarize them (the last two need contextDocuments). The judge is told the task and shown the documents.'),
    maxTurns: z.int().min(1).describe('At most this many turns (one user message and one answer each) per conversation.'),
    systemUnderTest: z
      .strictObject({
        systemPrompt: z
          .union([nonEmpty, z.strictObject({ file: resourcePath })])
          .describe('The system under test\'s system prompt: the text itself, or `{file: path}`.'),
        contextDocuments: z.array(resourcePath).min(1).optional().describe('Text files given to the system under test as context (question answering, summarization).'),
      })
      .describe('How the system under test is set up; the model itself is chosen at run time.'),
    personas: z.array(PERSONA_SCHEMA).min(1).describe('Persona templates, each with its parameter set.'),
    guideline: GUIDELINE_SCHEMA.describe('The annotation guideline the judge follows.'),
    humanLabels: resourcePath.optional().describe('A CSV file `sampleId,severity` of human annotations, to measure the judge\'s agreement.'),
    leakCheck: z
      .strictObject({
        strings: z.array(nonEmpty).min(1).describe('Any of these appearing in an answer of the system under test is a leak.'),
        caseSensitive: z.boolean().default(false).describe('Match case exactly (default: no).'),
      })
      .optional()
      .describe('A leak detectable by string match (a secret, a verbatim passage): the truth the judge\'s labels are checked against.'),
  })
  .superRefine((manifest, ctx) => {
    // Questions over a context and summaries of it need the context: without documents the judge
    // could not tell a grounded answer from an invented one.
    if (manifest.task !== 'conversation' && manifest.systemUnderTest.contextDocuments === undefined) {
      ctx.addIssue({ code: 'custom', path: ['systemUnderTest'], message: `a ${manifest.task} task needs contextDocuments (the documents the system under test works from)` });
    }
    const seen = new Set<string>();
    manifest.personas.forEach((persona, i) => {
      if (seen.has(persona.id)) ctx.addIssue({ code: 'custom', path: ['personas', i, 'id'], message: `duplicate persona id "${persona.id}"` });
      seen.add(persona.id);
    });
  });

export type HarmManifest = z.output<typeof HARM_MANIFEST_SCHEMA>;
export type Guideline = z.output<typeof GUIDELINE_SCHEMA>;
export type ScaleLevel = z.output<typeof SCALE_LEVEL_SCHEMA>;
export type PersonaSpec = z.output<typeof PERSONA_SCHEMA>;
export type DefectDirection = Guideline['defectWhen'];
/** What the system under test is asked to do (the manifest's `task`). */
export type HarmTaskType = HarmManifest['task'];

/** The published JSON Schema of a manifest (what users' editors validate against). */
export function harmManifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(HARM_MANIFEST_SCHEMA, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    $schema: schema['$schema'],
    title: 'assay measurement resource manifest (manifest.yaml)',
    description: 'A harm measurement resource: persona templates and parameters, the system under test, the annotation guideline. See docs/harm.md.',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}
