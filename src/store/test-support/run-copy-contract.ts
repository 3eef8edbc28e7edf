import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import { composedUserMessage, sharedText, type Sample } from '../../core/index.js';
import type { ReviewRecord, RunSlice } from '../records.js';
import type { Store } from '../store.js';
import { makeCall, makeResult, makeRun, okOutput, samples } from './store-contract.js';

/**
 * The contract's reads and writes for copying runs between stores (`assay migrate`): a run read
 * in slices, imported as given in one transaction, and deleted. Registered by `storeContract`
 * for each backend.
 */

/** Stores on new locations of the backend (`opened[i]` on location i; `again(i)` another connection to it), all closed after `body`. */
type WithLocations = (count: number, body: (opened: Store[], again: (i: number) => Promise<Store>) => Promise<void>) => () => Promise<void>;

const review = (sampleId: string, modelId: string, verdict: boolean): ReviewRecord => ({
  runId: 'full',
  sampleId,
  modelId,
  verdict,
  note: `note on ${sampleId}`,
  source: 'reviewed.csv',
  reviewedAt: '2026-03-02T09:00:00.000Z',
});

/** A run with everything a run can hold: composed prompts, calls that refer to their input, errors, a transcript, reviews. */
export async function fillRun(store: Store): Promise<void> {
  const template = sharedText('Choose one tool. '.repeat(20));
  const composed = (id: string): Sample => ({ id, input: [composedUserMessage(() => [template, id])], target: id, metadata: { id } });
  const all = [...samples, composed('s3'), composed('s4')];
  const run = makeRun({ id: 'full', sampleCount: 6, userModel: 'openai:user', metricsFacts: { guideline: 'be kind', labels: [1, null] }, judge: { model: 'openai:judge', selfGrading: false, repeats: 3, format: 'text', maxParseRetries: 1, temperature: 0.1 } });
  await store.createRun(run, all);
  const request = { settings: { temperature: 0 } };
  const call = (sampleId: string, extra: Parameters<typeof makeCall>[0] = {}) => makeCall({ runId: 'full', sampleId, ...extra });
  await store.saveOutcome([call('q-beta', { output: null, error: { kind: 'rate-limit', message: 'HTTP 429' }, usage: {}, costUsd: null }), call('q-beta', { attempt: 2 })], makeResult({ runId: 'full', attempts: 2 }));
  await store.saveOutcome(
    [call('s4', { request, messagesFromSample: true, cacheKey: 'shared-key' }), call('s4', { role: 'judge', actor: 'openai:judge', step: 'verdict', cacheKey: 'judge-key' })],
    makeResult({ runId: 'full', sampleId: 's4', transcript: [{ role: 'test', step: 'turn 1/test', model: 'openai:gpt-4o-mini', text: 'hi' }] }),
  );
  await store.saveOutcome([call('s3', { modelId: 'baseline:lexical', cacheKey: null, request: undefined })], makeResult({ runId: 'full', sampleId: 's3', modelId: 'baseline:lexical', status: 'error', output: null, score: null, error: { kind: 'server', message: '503' } }));
  await store.saveCalls([call('q-gamma', { step: 'cut short', cacheKey: 'only-in-full' })]);
  await store.saveReviews([review('s4', 'openai:gpt-4o-mini', false), review('q-beta', 'openai:gpt-4o-mini', true)]);
  await store.setRunStatus('full', 'interrupted');
}

/** Every read of a run that a report, show, compare, resume or rescore makes. */
export async function everything(store: Store, runId: string): Promise<unknown> {
  return {
    run: await store.getRun(runId),
    samples: await store.loadSamples(runId),
    calls: await store.calls(runId),
    results: await store.results(runId),
    reviews: await store.reviews(runId),
    spend: await store.runSpend(runId),
    judgeSteps: await store.stepCounts(runId, 'judge'),
    finished: [...(await store.finishedSampleIds(runId, 'openai:gpt-4o-mini'))].sort(),
  };
}

/** The run read in slices of `size`, joined. */
async function readInSlices(store: Store, runId: string, size: number): Promise<RunSlice[]> {
  const slices: RunSlice[] = [];
  for (let from = 0; ; from += size) {
    const slice = await store.runSlice(runId, from, size);
    if (slice.samples.length === 0) return slices;
    slices.push(slice);
  }
}

/** Copies run `runId` from `source` into `target` slice by slice, committed. */
async function importInSlices(source: Store, target: Store, runId: string, size: number): Promise<void> {
  const run = await source.getRun(runId);
  assert.ok(run);
  const imported = await target.importRun(run);
  for (const slice of await readInSlices(source, runId, size)) await imported.add(slice);
  await imported.commit();
}

export function runCopyContract(withLocations: WithLocations): void {
  describe('copying runs (runSlice, importRun, deleteRun)', () => {
    test('a run read in slices is the run read whole, in the same order', withLocations(1, async ([store]) => {
      assert.ok(store);
      await fillRun(store);
      const slices = await readInSlices(store, 'full', 2);
      assert.equal(slices.length, 3);
      assert.deepEqual(slices.flatMap((s) => s.samples), await store.loadSamples('full'));
      assert.deepEqual(slices.flatMap((s) => s.calls), await store.calls('full'));
      assert.deepEqual(slices.flatMap((s) => s.results), await store.results('full'));
      assert.deepEqual(slices.flatMap((s) => s.reviews), await store.reviews('full'));
      assert.deepEqual(await store.runSlice('full', 6, 2), { samples: [], calls: [], results: [], reviews: [] });
      assert.deepEqual(await store.runSlice('nope', 0, 2), { samples: [], calls: [], results: [], reviews: [] });
    }));

    test('an imported run reads back exactly as the original (also from another connection), invisible until committed, and serves the call cache', withLocations(2, async ([source, target], again) => {
      assert.ok(source && target);
      await fillRun(source);
      const run = await source.getRun('full');
      assert.ok(run);
      // Opened first: a SQLite store opening merges the cache index, which waits for the import's write lock.
      const reader = await again(1);
      const imported = await target.importRun(run);
      const slices = await readInSlices(source, 'full', 4);
      for (const slice of slices) {
        await imported.add(slice);
        assert.equal(await reader.getRun('full'), undefined, 'nothing is seen before the commit');
      }
      await imported.commit();
      const expected = await everything(source, 'full');
      assert.deepEqual(await everything(target, 'full'), expected);
      assert.deepEqual(await everything(reader, 'full'), expected);
      assert.deepEqual(await reader.lookupCache('shared-key'), okOutput);
      assert.deepEqual(await target.lookupCache('only-in-full'), okOutput, 'the calls of a cut-short sample serve the cache too');
      // A second import of the same run is refused; the first is untouched.
      await assert.rejects(target.importRun(run), (e: unknown) => e instanceof InputError && /run full already exists/.test(e.message));
      assert.deepEqual(await everything(reader, 'full'), expected);
    }));

    test("an imported run with repeats keeps each call's repeat (every role's), as its results keep theirs", withLocations(2, async ([source, target]) => {
      assert.ok(source && target);
      await source.createRun(makeRun({ id: 'repeated', repeats: 3 }), samples);
      const call = (repeat: number, extra: Parameters<typeof makeCall>[0] = {}) => makeCall({ runId: 'repeated', ...(repeat > 0 ? { repeat } : {}), cacheKey: `key-${repeat}`, ...extra });
      for (const repeat of [0, 1, 2]) {
        const judge = call(repeat, { role: 'judge', actor: 'openai:judge', step: 'verdict', cacheKey: null });
        await source.saveOutcome([call(repeat), judge], makeResult({ runId: 'repeated', ...(repeat > 0 ? { repeat } : {}) }));
      }
      await source.saveCalls([call(1, { sampleId: 'q-alpha', role: 'user', actor: 'openai:user', cacheKey: null })]);
      await importInSlices(source, target, 'repeated', 1);
      const copied = await target.calls('repeated');
      assert.deepEqual(copied, await source.calls('repeated'));
      assert.deepEqual(copied.map((c) => `${c.sampleId}:${c.role}#${c.repeat ?? 'absent'}`), ['q-beta:test#absent', 'q-beta:judge#absent', 'q-beta:test#1', 'q-beta:judge#1', 'q-beta:test#2', 'q-beta:judge#2', 'q-alpha:user#1']);
      assert.deepEqual(await everything(target, 'repeated'), await everything(source, 'repeated'));
    }));

    test('an aborted or failed import leaves no trace, and the run can be imported afterwards', withLocations(2, async ([source, target]) => {
      assert.ok(source && target);
      await fillRun(source);
      const run = await source.getRun('full');
      assert.ok(run);
      const [first, second, third] = await readInSlices(source, 'full', 2);
      assert.ok(first && second && third);
      const aborted = await target.importRun(run);
      await aborted.add(first);
      await aborted.abort();
      await aborted.abort();
      assert.equal(await target.getRun('full'), undefined);
      assert.deepEqual(await target.runSlice('full', 0, 10), { samples: [], calls: [], results: [], reviews: [] });
      // A slice that skips positions is refused; aborting then drops what was written.
      const failed = await target.importRun(run);
      await failed.add(first);
      await assert.rejects(failed.add(third), /sample s4 is at position 4, expected 2/);
      await failed.abort();
      assert.equal(await target.getRun('full'), undefined);
      // A record of another run inside a slice is refused too.
      const stranger = await target.importRun(run);
      await assert.rejects(stranger.add({ ...first, reviews: [{ ...review('q-beta', 'm', true), runId: 'other' }] }), /not of this slice's samples/);
      await stranger.abort();
      await importInSlices(source, target, 'full', 3);
      assert.deepEqual(await everything(target, 'full'), await everything(source, 'full'));
    }));

    test('deleteRun removes a run and all it holds; the call cache falls back to another run’s call with the key', withLocations(1, async ([store]) => {
      assert.ok(store);
      await fillRun(store);
      await store.createRun(makeRun({ id: 'other' }), samples);
      const otherOutput = { ...okOutput, text: 'from the other run' };
      await store.saveOutcome([makeCall({ runId: 'other', cacheKey: 'shared-key', output: otherOutput, startedAt: '2026-02-01T00:00:00.000Z' })], makeResult({ runId: 'other', output: otherOutput }));
      // Saved later, `full`'s own call with the key is the newest until `full` goes.
      await store.saveCalls([makeCall({ runId: 'full', sampleId: 'q-gamma', cacheKey: 'shared-key' })]);
      assert.deepEqual(await store.lookupCache('shared-key'), okOutput);
      await store.acquireRunLease('full', { id: 'h', pid: 1, host: 'x' }, 60_000);
      const otherBefore = await everything(store, 'other');

      assert.equal(await store.deleteRun('full'), true);
      assert.equal(await store.getRun('full'), undefined);
      assert.equal(await store.runLease('full'), undefined);
      assert.deepEqual(await store.runSlice('full', 0, 10), { samples: [], calls: [], results: [], reviews: [] });
      assert.deepEqual(await store.runSpend('full'), []);
      assert.deepEqual(await store.lookupCache('shared-key'), otherOutput);
      assert.equal(await store.lookupCache('only-in-full'), undefined);
      assert.deepEqual(await everything(store, 'other'), otherBefore);
      assert.equal(await store.deleteRun('full'), false);
      assert.equal(await store.deleteRun('oth'), false, 'an exact id only, never a prefix');
      // The id is free again.
      await store.createRun(makeRun({ id: 'full' }), samples);
    }));
  });
}
