import { z } from 'zod';
import { engineSettingsSchema } from '../core/engine-settings.js';

// The typed parts of a run record, declared once here (the types in `records.ts` are inferred
// from these schemas): what was asked of the engine and the suite (spec), where the run came from
// (provenance) and what happened to it (events). They are stored together in the runs table's
// `engine` JSON column (named for what it first held), in the layout `run-record-codec.ts` writes
// and reads — the one place that also reads the older layout — except provenance's checksums and
// versions, which keep the columns they always had. Reading them back does not load zod: the
// codec reads each part with its plain mirror (`run-part-reads.ts`), held to these schemas by a
// test (which fails on a field added here until its read has it).

/** The engine settings a run records (what was asked): `engineSettingsSchema`, each key optional as written (a default is recorded only when given). */
export const recordedEngineSchema = engineSettingsSchema.partial();

/** What a member run of a suite run records of it (`assay run --suite`; see `suites/membership.ts`). */
export const suiteMembershipSchema = z.object({
  /** The suite run's id (`suite-YYYYMMDD-HHMMSS-xxxx`): `assay run --suite` prints it. */
  id: z.string(),
  /** The suite's name in the config file. */
  suite: z.string(),
  /** The entry's index in the suite's `tasks:` (0-based). */
  entry: z.number(),
  /** How many entries the suite had when the suite run started. */
  entries: z.number(),
});

/** A pinned data file a run read with other bytes (`--allow-modified-data`). */
export const modifiedDataSchema = z.object({ file: z.string(), pinned: z.string(), actual: z.string() });

/** A model a config file declares, as the run recorded it: the declaration without secrets (its shape is `config/`'s `RecordedDeclaration`) and its hash. */
export const recordedModelSchema = z.object({ declaration: z.record(z.string(), z.unknown()), hash: z.string() });

/**
 * Where a run came from, as the runs table keeps it in columns of its own (`dataset_checksums`,
 * `prompt_version`, `toolkit_version`; `row-codec.ts` maps them): what a resume and a re-score
 * hold the data and prompts to.
 */
export const provenanceColumnsSchema = z.object({
  /** The sha256 of every data file the task read, by file (`PreparedTask.datasetChecksums`). */
  datasetChecksums: z.record(z.string(), z.string()).readonly(),
  /** The task's prompt version (`PreparedTask.promptVersion`). */
  promptVersion: z.string(),
  /** The assay version that made the run. */
  toolkitVersion: z.string(),
});

/**
 * Where a run came from beyond its columns, stored in the `engine` JSON column with the other
 * parts (`run-record-codec.ts`): the data dir it read, the pinned files it read modified, and
 * how its declared models were declared.
 */
export const provenanceDetailsSchema = z.object({
  /** The data dir the run read; a resume reads it again unless given another. */
  dataDir: z.string().optional(),
  /** Pinned data files the run read with other bytes (`--allow-modified-data`). */
  modifiedData: z.array(modifiedDataSchema).readonly().optional(),
  /** Each declared model's recorded declaration and hash, by name (`runner/declared-models.ts`). */
  declarations: z.record(z.string(), recordedModelSchema).optional(),
});

/** Where a run came from (`RunRecord.provenance`): its data checksums and versions, and the details beside them. */
export const runProvenanceSchema = z.object({ ...provenanceColumnsSchema.shape, ...provenanceDetailsSchema.shape });

/** A model stopped early because its errors repeat for every sample (see `runner/fail-fast.ts`). */
export const failFastStopSchema = z.object({
  /** The model whose calls failed: a model under test, the simulated user or the judge. */
  actor: z.string(),
  role: z.enum(['test', 'judge', 'user']),
  kind: z.string(),
  /** The provider's message, as the middleware recorded it (keys already redacted). */
  message: z.string(),
  /** The errors in a row that stopped it. */
  count: z.number(),
});

/** When an event happened (ISO 8601); absent for the events read from a record of the older layout, which kept no times. */
const at = z.string().optional();

/**
 * What happened to a run, appended in order and never rewritten (`RunRecord.events`):
 * - `submitted`: its units were queued (`assay run --queue`; a resume on the queue with the
 *   `session` that queued them, units of an earlier session being superseded);
 * - `resumed`: an in-process session continued it (`assay resume`);
 * - `ended`: a session ended, with the status it left and the models it stopped early;
 * - `failFast`: a queue worker stopped models for the whole fleet (the run interrupted).
 */
export const runEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('submitted'), at, queue: z.string(), session: z.string().optional() }),
  z.object({ type: z.literal('resumed'), at }),
  z.object({ type: z.literal('ended'), at, status: z.enum(['running', 'finished', 'interrupted', 'failed']), failFastStops: z.array(failFastStopSchema).readonly() }),
  z.object({ type: z.literal('failFast'), at, stops: z.array(failFastStopSchema).readonly() }),
]);
