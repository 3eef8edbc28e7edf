import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ModelCallError } from '../core/index.js';
import { createScriptedProvider } from '../models/providers/scripted/scripted-provider.js';
import { summarizeStoredRun, summaryPageSamples, type RunSummary } from '../analysis/summary.js';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { RunSpec } from './run-spec.js';
import { resumeRun, startRun } from './run.js';

/**
 * A run reads its summary's pages while its calls are in flight, each once every result of its
 * samples is stored (`SummaryAhead`, told by the drive's `FinalSamples`). Held here: the pages it
 * reads ahead are what the store holds for them at the end (nothing of theirs was written after),
 * and the summary is the one a full read of the stored run makes (`summarizeStoredRun`) — on a
 * task whose metrics read the rows in order (cases), with errors held back by fail-fast and
 * released later, and with a store whose read fails during the run.
 */
const CASES = 600;

interface PageRead {
  readonly from: number;
  readonly limit: number;
  /** Saves written when the page was read. */
  readonly saved: number;
  /** What the page's results read then. */
  readonly results: string;
}

/** Records each summary page read (`resultFacts` with a range) and how many saves were written then. */
function recordReads(store: SqliteStore): { reads: PageRead[]; saved: () => number } {
  const reads: PageRead[] = [];
  let saved = 0;
  const save = store.saveOutcome.bind(store);
  store.saveOutcome = async (...args) => {
    const written = await save(...args);
    saved++;
    return written;
  };
  const resultFacts = store.resultFacts.bind(store);
  store.resultFacts = async (runId, range) => {
    const facts = await resultFacts(runId, range);
    if (range?.limit !== undefined) reads.push({ from: range.from ?? 0, limit: range.limit, saved, results: JSON.stringify(facts) });
    return facts;
  };
  return { reads, saved: () => saved };
}

/** A cases run of `CASES` questions in `dir` (its file written there), on `models`, `concurrency` calls at a time, no retries, no cache. */
function casesSpec(dir: string, models: readonly string[], concurrency = 8): RunSpec {
  const file = join(dir, 'cases.jsonl');
  writeFileSync(file, Array.from({ length: CASES }, (_, i) => JSON.stringify({ id: `c${i}`, input: `Question ${i}?`, expect: [{ contains: 'yes' }] })).join('\n'));
  return {
    task: 'cases', models: [...models], seed: 5, options: { task: { file } }, dataDir: dir,
    engine: { concurrency, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false },
  };
}

async function runCases(options: {
  readonly models: readonly string[];
  /** Sample i's answer by `model`; `reads`: the pages read so far. */
  readonly answer: (i: number, model: string, reads: readonly PageRead[]) => string | Error | Promise<string | Error>;
  readonly concurrency?: number;
  /** Stop the run (a graceful interrupt) once this many results are stored, then resume it to the end. */
  readonly stopAfter?: number;
}): Promise<RunSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'assay-summary-ahead-'));
  const store = await openSqliteStore(join(dir, 'run.db'));
  try {
    const spec = casesSpec(dir, options.models, options.concurrency);
    const { reads: recorded, saved } = recordReads(store);
    const providers = Object.fromEntries(
      options.models.map((id) => [
        id,
        createScriptedProvider({
          id,
          respond: async (request) => {
            // A little latency, uneven, so that samples finish out of order.
            const message = request.messages.at(-1);
            const i = Number(/\d+/.exec(typeof message?.content === 'string' ? message.content : '')?.[0]);
            await new Promise((resolve) => setTimeout(resolve, (i * 7) % 3));
            return options.answer(i, id, recorded);
          },
        }),
      ]),
    );
    const stop = new AbortController();
    const stopping = options.stopAfter === undefined ? undefined : setInterval(() => saved() >= (options.stopAfter ?? 0) && stop.abort(), 1);
    const first = await startRun(spec, { store, providers, stop: stop.signal });
    clearInterval(stopping);
    let summary = first;
    if (options.stopAfter !== undefined) {
      assert.equal(first.status, 'interrupted');
      assert.deepEqual(first, await summarizeStoredRun(store, first.run), 'the interrupted run’s summary is the full read’s');
      recorded.length = 0;
      summary = await resumeRun(first.run, {}, { store, providers });
    }
    const reads = [...recorded];
    const total = saved();
    assert.equal(total, CASES * options.models.length, 'every result stored');
    const ahead = reads.filter((r) => r.saved < total);
    assert.ok(ahead.length >= 2, `pages read while results were still to come (${ahead.length} of ${reads.length} reads)`);
    const pageSamples = summaryPageSamples(options.models.length, 1);
    for (const read of ahead) {
      assert.equal(read.from % pageSamples, 0, 'whole pages, from the first');
      assert.equal(read.limit, pageSamples);
      // Nothing of a page read ahead changed after it was read.
      assert.equal(read.results, JSON.stringify(await store.resultFacts(summary.run, { from: read.from, limit: read.limit })), `page at ${read.from}`);
    }
    // Each page read once, in order: the run's end read only what was left.
    assert.deepEqual(
      reads.map((r) => r.from),
      Array.from({ length: reads.length }, (_, i) => i * pageSamples),
    );
    assert.deepEqual(summary, await summarizeStoredRun(store, summary.run));
    return summary;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const yesOrNo = (i: number, model: string): string => ((i + (model.endsWith('b') ? 1 : 0)) % 3 === 0 ? 'no' : 'yes');

test('a run reads its final pages ahead: the same pages, read once, in order; the same summary as a full read', async () => {
  await runCases({ models: ['scripted:a'], answer: yesOrNo });
});

test('two models: a page is read once both models’ results for its samples are stored', async () => {
  await runCases({ models: ['scripted:a', 'scripted:b'], answer: yesOrNo });
});

test('errors held in a fail-fast streak and released later: no page is read while they are held, the summary counts them', async () => {
  // Samples 248 and 249, the last of the first page, fail alike (a streak below the stop's bound
  // of 3) once every sample before them has answered, so that no success breaks the streak before
  // the drive is done with the page: their results are held then. The samples after the page
  // answer only once a page has been read or 200 ms have passed: the first answer breaks the
  // streak and the two are stored as errors. The page is read after that, not before.
  let below = 0;
  let failed = 0;
  let streakAt: number | undefined;
  const summary = await runCases({
    models: ['scripted:a'],
    answer: async (i, model, reads) => {
      if (i === 248 || i === 249) {
        await until(() => below === 248);
        if (++failed === 2) streakAt = performance.now();
        return new ModelCallError('bad-request', 'the same refusal');
      }
      if (i < 248) below++;
      else await until(() => streakAt !== undefined && (reads.length > 0 || performance.now() - streakAt > 200));
      return yesOrNo(i, model);
    },
  });
  assert.equal(summary.models['scripted:a']?.counts.errors, 2);
});

/** Resolves once `condition` holds, looked at every millisecond. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

test('an interrupted run, then its resume: each reads ahead what it finished, and each summary is the full read’s', async () => {
  await runCases({ models: ['scripted:a', 'scripted:b'], answer: yesOrNo, stopAfter: 500 });
});

test('a read that fails during the run is dropped: the end reads the whole run and the summary is the same', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-summary-ahead-'));
  const store = await openSqliteStore(join(dir, 'run.db'));
  try {
    const spec = casesSpec(dir, ['scripted:a']);
    const providers = { 'scripted:a': createScriptedProvider({ id: 'scripted:a', respond: async () => new Promise((resolve) => setTimeout(() => resolve('yes'), 1)) }) };
    let failures = 0;
    let reads = 0;
    const sampleFacts = store.sampleFacts.bind(store);
    store.sampleFacts = async (runId, range) => {
      if (range?.limit !== undefined) reads++;
      // The second page read fails (once).
      if (range?.limit !== undefined && reads === 2) {
        failures++;
        throw new Error('disk read failed');
      }
      return sampleFacts(runId, range);
    };
    const summary = await startRun(spec, { store, providers });
    assert.equal(failures, 1, 'a page read failed during the run');
    assert.equal(summary.models['scripted:a']?.counts.done, CASES);
    assert.deepEqual(summary, await summarizeStoredRun(store, summary.run));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
