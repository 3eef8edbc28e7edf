import { InputError } from '../core/index.js';
import type { RunRecord } from './records.js';
import type { Store } from './store.js';

/** The stored run an id or unique id prefix names, or the one-line refusal naming it. */
export async function requireRun(store: Store, runIdOrPrefix: string): Promise<RunRecord> {
  const run = await store.getRun(runIdOrPrefix);
  if (!run) throw new InputError(`no run "${runIdOrPrefix}" in this database; "assay runs" lists them`);
  return run;
}
