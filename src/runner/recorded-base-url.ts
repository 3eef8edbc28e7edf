import { InputError, parseModelId, redactUrlCredentials } from '../core/index.js';
import { fillsHidden, nonEmpty } from '../models/http/base-url.js';
import { DEFAULT_OPENAI_BASE_URL } from '../models/providers/openai/resolve-endpoint.js';
import type { RunRecord } from '../store/records.js';

/**
 * Engine settings as a run records them: the base URL's credentials hidden (`***` for the user
 * part's password and for query values named like credentials or equal to one of `isSecret`'s
 * keys), so no store, export, report or page can show them. The session that was given them
 * calls with them; one that continues the run in a process takes them from its environment
 * (`restoreCredentials` in `models/http/base-url.ts`). A queue's worker never calls the recorded
 * URL at all (`withWorkerEndpoint`).
 */
export function withCredentialsHidden<E extends { readonly openaiBaseURL?: string }>(engine: E, isSecret?: (value: string) => boolean): E {
  const url = engine.openaiBaseURL;
  if (url === undefined) return engine;
  const hidden = redactUrlCredentials(url, isSecret);
  return hidden === url ? engine : { ...engine, openaiBaseURL: hidden };
}

/**
 * The engine a queue's worker calls a run's models with: the base URL is the worker's own
 * (`own`: its `--base-url`; without one the provider reads the worker's `OPENAI_BASE_URL`, else
 * api.openai.com), never one from the run record — a URL anyone who can submit a run (or write a
 * run row) names would otherwise receive every worker's key. A run that records a base URL
 * (written by an earlier assay, which recorded a queued run's `--base-url`, or by hand) and calls
 * an `openai:` model is refused unless that URL is the worker's own endpoint, so that results never
 * silently come from an endpoint other than the one the run says. Nothing is called either way.
 * The message names the field and the recorded URL (as stored: credentials hidden), never the
 * worker's own URL (it goes to the shared store).
 */
export function withWorkerEndpoint<E extends { readonly openaiBaseURL?: string }>(run: RunRecord, engine: E, own: string | undefined, environment: NodeJS.ProcessEnv = process.env): E {
  const { openaiBaseURL: recorded, ...rest } = engine;
  const callsOpenAI = [...run.models, ...(run.judge ? [run.judge.model] : []), ...(run.userModel !== undefined ? [run.userModel] : [])].some((id) => id.includes(':') && parseModelId(id).provider === 'openai');
  if (recorded !== undefined && callsOpenAI) {
    const mine = own ?? nonEmpty(environment['OPENAI_BASE_URL']) ?? DEFAULT_OPENAI_BASE_URL;
    // The worker's URL with its credentials, or with the keys the run hid (`***` in a path segment or any query value).
    if (comparable(redactUrlCredentials(mine)) !== comparable(recorded) && !fillsHidden(recorded, mine)) {
      throw new InputError(
        `run ${run.id} records engine.openaiBaseURL "${redactUrlCredentials(recorded)}", which is not this worker's endpoint (its --base-url, else OPENAI_BASE_URL, else ${DEFAULT_OPENAI_BASE_URL}): a worker calls only its own endpoint, never one a run names; run it on workers pointed at that endpoint, or resume it in one process`,
      );
    }
  }
  return (own !== undefined ? { ...rest, openaiBaseURL: own } : rest) as E;
}

/** A URL as two spellings of one endpoint compare: as `URL` normalizes it (scheme and host case, default port), no trailing slash. */
function comparable(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.pathname = parsed.pathname.replace(/\/+$/, '');
    return parsed.href.replace(/\/+$/, '');
  } catch {
    return url.replace(/\/+$/, '');
  }
}
