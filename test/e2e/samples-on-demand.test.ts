import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { registerTask } from '../../src/benchmarks/registry.js';
import type { Metrics, ScoredSample, Task } from '../../src/benchmarks/task.js';
import { buildSamples, type Sample, type SampleList } from '../../src/core/index.js';
import { resumeRun, startRun } from '../../src/runner/run.js';
import type { RunSpec } from '../../src/runner/run-spec.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer } from '../../src/testing/fake-openai-server.js';

// A task may build its samples on demand (`buildSamples`) rather than hold them in an array: the
// engine then reads each by position as it is stored or called. These runs check that such a
// task's run, interrupted and resumed, records what the same samples in an array record.

const COUNT = 700; // more than two of the chunks the engine stores ahead of the calls (256)
const TOOLS = ['Weather', 'Flights', 'Recipes', 'Stocks', 'News'];
let builds = 0;

function sampleAt(index: number): Sample {
  builds++;
  const right = TOOLS[index % TOOLS.length] as string;
  return { id: `q${index}`, input: [{ role: 'user', content: `Sample ${index}: which tool? ${TOOLS.join(', ')}` }], target: right, metadata: { index } };
}

function taskOf(name: string, samples: () => SampleList): Task {
  return {
    name,
    version: '1',
    description: 'tool choice, for the on-demand samples test',
    defaultSettings: { temperature: 0 },
    prepare: async () => ({
      samples: samples(),
      datasetChecksums: {},
      promptVersion: '1',
      score: (sample, output) => ({ value: output.text.trim() === sample.target ? 1 : 0, answer: output.text.trim() }),
    }),
    metrics(rows: Iterable<ScoredSample>): Metrics {
      let scored = 0, right = 0;
      for (const row of rows) {
        if (typeof row.score?.value !== 'number') continue;
        scored++;
        right += row.score.value;
      }
      return { accuracy: scored === 0 ? null : right / scored, scored };
    },
  };
}

registerTask(taskOf('test/on-demand', () => buildSamples(COUNT, sampleAt)));
registerTask(taskOf('test/in-memory', () => Array.from({ length: COUNT }, (_, i) => sampleAt(i))));

/** Right for four samples in five, wrong for every fifth. */
const answer = (prompt: string): string => {
  const index = Number(/^Sample (\d+):/.exec(prompt)?.[1]);
  return TOOLS[(index % 5 === 4 ? index + 1 : index) % TOOLS.length] as string;
};

const specOf = (task: string, url: string): RunSpec => ({
  task,
  models: ['openai:m'],
  seed: 1,
  options: {},
  dataDir: '.',
  engine: { concurrency: 8, timeoutMs: 10_000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true, openaiBaseURL: url },
});

test('samples built on demand: a run interrupted and resumed records the samples, results and metrics of the same samples held in an array, and calls each once', async () => {
  const server = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: answer(ctx.key) }) });
  const dir = mkdtempSync(join(tmpdir(), 'assay-on-demand-'));
  try {
    const store = await openSqliteStore(join(dir, 'a.db'));
    const stop = new AbortController();
    builds = 0;
    const stopped = await startRun(specOf('test/on-demand', server.url), { store, stop: stop.signal, onProgress: (e) => e.finished >= 150 && stop.abort() });
    assert.equal(stopped.status, 'interrupted');
    const stoppedCounts = stopped.models['openai:m']?.counts;
    assert.ok(stoppedCounts && stoppedCounts.done >= 150 && stoppedCounts.pending > 0, `counts when stopped: ${JSON.stringify(stoppedCounts)}`);
    // One pass to check the ids are unique, one to store, one to call, one for the summary: never
    // a pass per sample (a list read by position is not searched).
    assert.ok(builds <= 4 * COUNT, `samples built by the stopped session: ${builds}`);

    const resumed = await resumeRun(stopped.run, {}, { store });
    assert.equal(resumed.status, 'finished');
    assert.deepEqual([resumed.models['openai:m']?.counts.done, resumed.models['openai:m']?.counts.pending], [COUNT, 0]);
    const calls = [...server.attemptsByKey.values()];
    assert.equal(calls.length, COUNT, 'every sample was asked for');
    assert.ok(calls.every((n) => n === 1), 'no sample was asked for twice');

    const other = await openSqliteStore(join(dir, 'b.db'));
    const inMemory = await startRun(specOf('test/in-memory', server.url), { store: other });
    assert.deepEqual(resumed.models['openai:m']?.metrics, inMemory.models['openai:m']?.metrics);
    assert.deepEqual(resumed.models['openai:m']?.metrics, { accuracy: 560 / 700, scored: 700 }, 'four in five right, computed by hand');
    const fields = (s: Sample): unknown => [s.id, s.input, s.target, s.metadata];
    assert.deepEqual((await store.loadSamples(stopped.run)).map(fields), (await other.loadSamples(inMemory.run)).map(fields));
    const outputs = async (s: typeof store, run: string): Promise<unknown[]> => (await s.results(run, 'openai:m')).map((r) => [r.sampleId, r.status, r.score]).sort();
    assert.deepEqual(await outputs(store, stopped.run), await outputs(other, inMemory.run));
    await Promise.all([store.close(), other.close()]);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
