import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { InputError } from '../../core/errors.js';
import Database from 'better-sqlite3';
import { composedUserMessage, sharedText, user, type GenerateResult, type Sample } from '../../core/index.js';
import { runRecordView } from '../run-events.js';
import { makeCall, makeResult, makeRun, okOutput, samples } from '../test-support/store-contract.js';
import { openSqliteStore, type SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-store-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let fileCounter = 0;
/** A fresh store in its own file, so tests do not see each other's rows. */
async function freshStore(): Promise<{ store: SqliteStore; file: string }> {
  const file = join(dir, `store-${++fileCounter}.db`);
  return { store: await openSqliteStore(file), file };
}

// The backend-neutral behaviour is the Store contract (test-support/store-contract.ts, run for
// SQLite by sqlite-contract.test.ts); these are SQLite's own storage devices.

describe('shared prompt texts', () => {
  test('prompts made from shared parts are stored once per run and read back whole, in samples and in calls', async () => {
    const { store, file } = await freshStore();
    const template = sharedText('Choose one tool. '.repeat(40));
    const tool = sharedText('. tool name: spotify, tool description: Plays music\n');
    const composed = (id: string, query: string): Sample => ({ id, input: [composedUserMessage(() => [template, query, '1', tool])], target: 'spotify', metadata: {} });
    const prompt = (query: string): string => `${template.shared}${query}1${tool.shared}`;
    const runA = makeRun({ id: 'run-a' });
    const runB = makeRun({ id: 'run-b' });
    await store.createRun(runA, [composed('s1', 'play jazz'), composed('s2', 'play rock')]);
    await store.createRun(runB, [composed('s1', 'play blues')]);
    const call = makeCall({ runId: 'run-a', sampleId: 's2', request: { settings: { temperature: 0 } }, messagesFromSample: true });
    await store.saveOutcome([call], makeResult({ runId: 'run-a', sampleId: 's2' }));
    await store.close();

    const db = new Database(file, { readonly: true });
    // Each run keeps its own two texts; a sample row holds only its query and the numbers.
    assert.deepEqual(db.prepare('SELECT run_id, count(*) AS n FROM run_texts GROUP BY run_id ORDER BY run_id').all(), [
      { run_id: 'run-a', n: 2 },
      { run_id: 'run-b', n: 2 },
    ]);
    assert.equal(db.prepare("SELECT input FROM samples WHERE run_id = 'run-a' AND sample_id = 's2'").pluck().get(), '[{"role":"user","contentParts":[0,"play rock","1",1]}]');
    db.close();

    const reopened = await openSqliteStore(file);
    assert.deepEqual((await reopened.loadSamples('run-a')).map((s) => s.input), [[user(prompt('play jazz'))], [user(prompt('play rock'))]]);
    assert.deepEqual((await reopened.loadSamples('run-b')).map((s) => s.input), [[user(prompt('play blues'))]]);
    const [stored] = await reopened.calls('run-a', 's2');
    assert.deepEqual(stored?.request, { messages: [user(prompt('play rock'))], settings: { temperature: 0 } });
    await reopened.close();
  });

  test('a run stored in chunks: its count is recorded, later chunks continue the order and the texts, also from another session', async () => {
    const { store, file } = await freshStore();
    const template = sharedText('Choose one tool. '.repeat(10));
    const toolA = sharedText('. tool name: a\n');
    const toolB = sharedText('. tool name: b\n');
    const composed = (id: string, tool: typeof toolA): Sample => ({ id, input: [composedUserMessage(() => [template, id, tool])], target: null, metadata: {} });
    const all = [composed('s0', toolA), composed('s1', toolA), composed('s2', toolB), composed('s3', toolA), composed('s4', toolB)];
    const run = makeRun({ id: 'chunked', sampleCount: all.length });
    await store.createRun(run, all.slice(0, 2));
    assert.equal((await store.getRun('chunked'))?.sampleCount, 5);
    assert.equal((await store.getRun('chunked'))?.status, 'running');
    await store.addSamples('chunked', all.slice(2, 3));
    // A later chunk naming a sample the run has is refused whole.
    await assert.rejects(store.addSamples('chunked', [composed('s3', toolA), composed('s0', toolA)]), /UNIQUE|PRIMARY KEY/);
    await assert.rejects(store.addSamples('nope', all.slice(3)), (e: unknown) => e instanceof InputError && /no run nope/.test(e.message));
    await store.close();

    // Another session (after a kill) continues where the first stopped, in order and numbering.
    const resumed = await openSqliteStore(file);
    await resumed.addSamples('chunked', all.slice(3));
    const loaded = await resumed.loadSamples('chunked');
    assert.deepEqual(loaded.map((s) => [s.id, s.index]), [['s0', 0], ['s1', 1], ['s2', 2], ['s3', 3], ['s4', 4]]);
    assert.deepEqual(loaded.map((s) => s.input[0]?.content), all.map((s) => `${template.shared}${s.id}${s.id === 's2' || s.id === 's4' ? toolB.shared : toolA.shared}`));
    await resumed.close();
    const db = new Database(file, { readonly: true });
    // The first session stored each text once; the second, not knowing the first's objects, adds its own under new numbers.
    assert.deepEqual(db.prepare("SELECT text_id FROM run_texts WHERE run_id = 'chunked' ORDER BY text_id").pluck().all(), [0, 1, 2, 3, 4, 5]);
    db.close();
  });

});

describe('the call cache index, merged in batches', () => {
  test('the same answers come from the merged index: after a reopen, and after 2,000 cached calls', async () => {
    const { store, file } = await freshStore();
    const many: Sample[] = Array.from({ length: 2100 }, (_, i) => ({ id: `s${i}`, input: [user(`q${i}`)], target: null, metadata: {} }));
    await store.createRun(makeRun(), many);
    const out = (i: number): GenerateResult => ({ ...okOutput, text: `answer ${i}` });
    const key = (i: number): string => `key-${i % 2050}`; // samples 2050.. repeat the first keys: the newer call must win
    const save = (i: number) => store.saveOutcome([makeCall({ sampleId: `s${i}`, cacheKey: key(i), output: out(i) })], makeResult({ sampleId: `s${i}`, output: out(i) }));
    await Promise.all(Array.from({ length: 2100 }, (_, i) => save(i)));
    const db = new Database(file, { readonly: true });
    // The batch that reached 2,000 cached calls was merged; nothing is left to merge but what came after.
    const merged = db.prepare('SELECT count(*) FROM call_cache').pluck().get() as number;
    assert.ok(merged >= 2000 && merged <= 2050, `merged ${merged}`);
    db.close();
    for (const i of [0, 49, 50, 1999, 2049]) assert.equal((await store.lookupCache(key(i)))?.text, `answer ${i < 50 ? i + 2050 : i}`);
    await store.close();

    const reopened = await openSqliteStore(file);
    for (const i of [0, 49, 50, 1999, 2049]) assert.equal((await reopened.lookupCache(key(i)))?.text, `answer ${i < 50 ? i + 2050 : i}`);
    await reopened.close();
  });

  test('another store on the file sees new cached calls once they are merged; a store that opens catches up on calls never merged', async () => {
    const { store: writer, file } = await freshStore();
    await writer.createRun(makeRun(), samples);
    const reader = await openSqliteStore(file);
    await writer.saveOutcome([makeCall({ cacheKey: 'k1' })], makeResult());
    assert.deepEqual(await writer.lookupCache('k1'), okOutput); // its own call, before any merge
    assert.equal(await reader.lookupCache('k1'), undefined); // not merged yet
    await writer.close(); // merges
    assert.deepEqual(await reader.lookupCache('k1'), okOutput);

    // A process killed before its merge: its calls are in `calls` but not in the index.
    const raw = new Database(file);
    raw
      .prepare(
        `INSERT INTO calls (run_id, sample_id, model_id, role, attempt, cache_key, request, output, error, latency_ms, started_at)
         VALUES (?, 'q-alpha', 'openai:gpt-4o-mini', 'test', 1, 'k2', NULL, ?, NULL, 1, 'now')`,
      )
      .run(makeRun().id, JSON.stringify({ ...okOutput, text: 'unmerged' }));
    raw.close();
    assert.equal(await reader.lookupCache('k2'), undefined);
    const next = await openSqliteStore(file);
    assert.equal((await next.lookupCache('k2'))?.text, 'unmerged');
    await Promise.all([next.close(), reader.close()]);
  });
});

test('an in-memory store works for quick tests', async () => {
  const store = await openSqliteStore(':memory:');
  await store.createRun(makeRun(), samples);
  assert.equal((await store.listRuns()).length, 1);
  await store.close();
  await store.close(); // closing twice is harmless
});

describe('the run record in its columns', () => {
  test('provenance’s checksums and versions keep their columns, the rest of it the engine column; runs --json’s view puts them where it always did', async () => {
    const { store, file } = await freshStore();
    const run = makeRun({ id: 'run-p' });
    await store.createRun(run, samples);
    const read = await store.getRun('run-p');
    await store.close();
    assert.deepEqual(read?.provenance, run.provenance);
    const db = new Database(file, { readonly: true });
    try {
      const row = db.prepare('SELECT dataset_checksums, prompt_version, toolkit_version, engine FROM runs WHERE id = ?').get('run-p') as Record<string, string>;
      assert.deepEqual(JSON.parse(row['dataset_checksums'] ?? ''), run.provenance.datasetChecksums);
      assert.deepEqual([row['prompt_version'], row['toolkit_version']], [run.provenance.promptVersion, run.provenance.toolkitVersion]);
      const { datasetChecksums: _sums, promptVersion: _prompt, toolkitVersion: _toolkit, ...details } = run.provenance;
      assert.deepEqual((JSON.parse(row['engine'] ?? '') as { provenance: unknown }).provenance, details, 'not written twice');
    } finally {
      db.close();
    }
    assert.ok(read);
    assert.deepEqual(Object.keys(runRecordView(read)), [
      'id', 'task', 'taskVersion', 'status', 'createdAt', 'updatedAt', 'models', 'settings', 'seed', 'options',
      'datasetChecksums', 'promptVersion', 'toolkitVersion', 'engine', 'judge',
    ]);
  });
});
