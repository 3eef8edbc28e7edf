import { canonicalJson, sha256, type Message, type Sample } from '../../core/index.js';
import type { ResultRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { ComparedResult } from './sample-pairs.js';

/** Samples read per page (with their results): the digests and what a comparison reads of the results are held, not the rows. */
const PAGE = 250;

/**
 * The sha256 of what a sample asks, as stored: its input messages and the tools offered. Two runs
 * may give one id to different questions (MetaTool's `similar/<tool>/0` under another `--seed`):
 * a comparison pairs samples only when these agree. Computed from the stored sample, so runs
 * stored before comparisons checked inputs compare too.
 */
export function inputDigest(sample: Pick<Sample, 'input' | 'tools'>): string {
  // A composed prompt's content is a getter: read it into plain data first.
  const input = sample.input.map((m: Message) => ({ ...m, content: m.content }));
  return sha256(canonicalJson({ input, tools: sample.tools ?? [] }));
}

/** What a comparison reads of a stored run: its results (`ComparedResult`, in the store's order) and its samples' input digests by id. */
export interface StoredForComparison {
  readonly results: readonly ComparedResult[];
  readonly digests: ReadonlyMap<string, string>;
}

/**
 * A run's results and its samples' {@link inputDigest}s, the store read a page at a time: a page
 * of samples, then the results of those samples, each kept only as what a comparison reads of it
 * (`ComparedResult`: no output, usage, times or transcript). Two 19,793-sample runs compared
 * held every result record of both at once (214 MB peak); a page's rows are what is held now.
 */
export async function storedForComparison(store: Store, runId: string): Promise<StoredForComparison> {
  const digests = new Map<string, string>();
  const results: ComparedResult[] = [];
  for (let from = 0; ; from += PAGE) {
    const range = { from, limit: PAGE };
    const samples = await store.loadSamples(runId, range);
    for (const sample of samples) digests.set(sample.id, inputDigest(sample));
    for (const r of await store.results(runId, undefined, { outputs: false, range })) results.push(comparedResult(r));
    if (samples.length < PAGE) return { results, digests };
  }
}

/** The fields a comparison reads of a result, in a fresh object of their own (the record it came from let go). */
function comparedResult(r: ResultRecord): ComparedResult {
  return r.repeat ? { sampleId: r.sampleId, modelId: r.modelId, repeat: r.repeat, status: r.status, score: r.score } : { sampleId: r.sampleId, modelId: r.modelId, status: r.status, score: r.score };
}
