import { canonicalJson, sha256, type Message, type Sample } from '../../core/index.js';
import type { Store } from '../../store/store.js';

/** Samples read per page: the digests are held, not the prompts. */
const PAGE = 2_000;

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

/** Every stored sample's {@link inputDigest} by sample id, the store read a page at a time. */
export async function storedInputDigests(store: Store, runId: string): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  for (let from = 0; ; from += PAGE) {
    const samples = await store.loadSamples(runId, { from, limit: PAGE });
    for (const sample of samples) digests.set(sample.id, inputDigest(sample));
    if (samples.length < PAGE) return digests;
  }
}
