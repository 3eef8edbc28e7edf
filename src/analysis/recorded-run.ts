import type { ModifiedDataFile } from '../datasets/pinned.js';
import type { RecordedDeclaration } from '../config/recorded-declaration.js';
import type { FailFastStop, ProvenanceDetails } from '../store/records.js';

/*
 * What a run's provenance holds, read back for the runner and the readers alike: the declarations
 * of the models a config file declared, the data files it read with other bytes than assay pins,
 * and the line a fail-fast stop is told in. The runner writes them; a summary, `show`, `runs` and
 * the report read them, so the readers live here, below both.
 */

/** What a run records of one declared model: the declaration without secrets, and the hash of what makes it the same system. */
export interface RecordedModel {
  readonly declaration: RecordedDeclaration;
  readonly hash: string;
}

/** The declarations a run recorded, by name (empty for a run made without a config file). */
export function recordedModels(run: { readonly provenance: ProvenanceDetails }): Readonly<Record<string, RecordedModel>> {
  // The store reads each as `{declaration, hash}` (`store/run-record-codec.ts`); the declaration's fields are config/'s to read.
  return (run.provenance.declarations ?? {}) as Readonly<Record<string, RecordedModel>>;
}

/** The modified data files a run recorded (empty for a run on the pinned data). */
export function recordedModifiedData(run: { readonly provenance: ProvenanceDetails }): ModifiedDataFile[] {
  return [...(run.provenance.modifiedData ?? [])];
}

const WHY: Readonly<Record<string, string>> = {
  auth: 'the provider refuses the credentials',
  'not-found': 'the model (or the endpoint) does not exist',
  'bad-request': 'the provider refuses the request itself',
  network: 'nothing has answered at this endpoint yet in this session',
  timeout: 'no call has been answered in time yet in this session',
};

const FIX: Readonly<Record<string, string>> = {
  auth: 'fix the API key (OPENAI_API_KEY or --api-key-env, ANTHROPIC_API_KEY, GEMINI_API_KEY) or its permissions',
  'not-found': 'check the model id and the base URL (--base-url can be given to resume)',
  'bad-request': 'fix what the message names (a setting the model does not take needs a new run without it)',
  network: 'check the base URL (--base-url, OPENAI_BASE_URL or the config file; --base-url can be given to resume) and that the server is up',
  timeout: 'check that the server is up and the base URL is the right one, or give a slow model a longer --timeout',
};

/**
 * The one-line warning for a stop, with what to do next. `run` (its record) names the key
 * variable of a model a config file declares, where an auth error is to be fixed.
 */
export function describeStop(stop: FailFastStop, runId: string, run?: { readonly provenance: ProvenanceDetails }): string {
  const keyVariable = stop.kind === 'auth' && run ? recordedModels(run)[stop.actor]?.declaration['apiKeyEnv'] : undefined;
  const fix = typeof keyVariable === 'string' ? `fix the key in ${keyVariable} (models.${stop.actor}.apiKeyEnv of the config file) or its permissions` : (FIX[stop.kind] ?? 'fix the cause');
  const who = stop.role === 'judge' ? `the judge ${stop.actor} (and with it the run)` : stop.role === 'user' ? `the simulated user ${stop.actor} (and with it the run)` : stop.actor;
  const errors = stop.count === 1 ? `1 ${stop.kind} error` : `${stop.count} identical ${stop.kind} errors in a row`;
  return (
    `stopped ${who} after ${errors} — ${WHY[stop.kind] ?? stop.kind}: ${stop.message}. ` +
    `No new sample was started; the samples that got this error are left unfinished. ` +
    `To go on: ${fix}, then assay resume ${runId}`
  );
}
