import { InputError } from '../core/index.js';

/**
 * Why a queued run names no endpoint, in one line: a worker sends its own provider key to the
 * endpoint it calls, so a URL taken from the run would let anyone who can submit a run collect
 * every worker's key. Workers are pointed at an endpoint by their operator (`withWorkerEndpoint`
 * in `runner/recorded-base-url.ts` is the worker's side). `what` names what was given.
 */
export const queuedBaseUrlRefusal = (what: string): string =>
  `${what} does not go with --queue: workers call only their own endpoint, never a URL a run names; point each worker at it instead (assay worker --base-url <url>, or OPENAI_BASE_URL in the worker's environment); per-model endpoints come with the config file's model declarations (assay.yaml)`;

/** Refuses engine settings that name an endpoint for a queued run (a submit or a resume on the queue), before anything is recorded. */
export function refuseQueuedBaseURL(engine: { readonly openaiBaseURL?: string }): void {
  if (engine.openaiBaseURL !== undefined) throw new InputError(queuedBaseUrlRefusal('engine.openaiBaseURL'));
}
