import { withFields } from '../core/index.js';
import type { CallRecord, RunSlice } from './records.js';

/**
 * What every backend does to a slice of a run it imports (`Store.importRun`) before writing it:
 * check that it continues the run where the last one ended, and give back the calls whose
 * messages are their sample's input the flag that lets the store keep one copy of the prompt.
 */

/**
 * Checks that the slice's samples take the positions `next`, `next + 1`, … and that every call,
 * result and review belongs to `runId` and to one of those samples; returns the next position.
 * A gap or a stranger would store a run that reads back differently from the one copied.
 */
export function checkSliceContinues(runId: string, slice: RunSlice, next: number): number {
  const ids = new Set<string>();
  let position = next;
  for (const sample of slice.samples) {
    if (sample.index !== position) throw new Error(`importing run ${runId}: sample ${sample.id} is at position ${sample.index}, expected ${position}`);
    ids.add(sample.id);
    position++;
  }
  const records: readonly { readonly runId: string; readonly sampleId: string }[][] = [[...slice.calls], [...slice.results], [...slice.reviews]];
  for (const list of records) {
    for (const record of list) {
      if (record.runId !== runId || !ids.has(record.sampleId)) {
        throw new Error(`importing run ${runId}: a record of ${record.runId}/${record.sampleId} is not of this slice's samples`);
      }
    }
  }
  return position;
}

/**
 * The slice's calls, each one whose request's messages are exactly its sample's input marked
 * `messagesFromSample` with the messages left out, as the runner saves such a call: a call read
 * back carries its messages and no flag, and storing them again per call would repeat every
 * prompt. Reading it back joins the same messages in, so what reads back is unchanged.
 */
export function callsReferringToInput(slice: RunSlice): CallRecord[] {
  const inputs = new Map(slice.samples.map((sample) => [sample.id, JSON.stringify(sample.input)]));
  return slice.calls.map((call) => {
    const request = call.request;
    if (request === null || typeof request !== 'object' || Array.isArray(request) || !('messages' in request)) return call;
    const { messages, ...rest } = request as { messages: unknown };
    if (JSON.stringify(messages) !== inputs.get(call.sampleId)) return call;
    return withFields(call, { request: rest, messagesFromSample: true });
  });
}
