import assert from 'node:assert/strict';
import { test } from 'node:test';
// A finished sample's save does not hold its slot (runner/execute.ts), but a store slower than the
// model must not let answers pile up unwritten: in memory, and lost should the process die. Driven
// through the public library API, with a store whose writes wait until the test lets them through.
import { createScriptedProvider, openSqliteStore, registerTask, scoreWith, startRun, type RunSpec, type Sample, type Store } from '../../src/index.js';

const SAMPLES = 24;
const CONCURRENCY = 3;

const samples: Sample[] = Array.from({ length: SAMPLES }, (_, i) => ({ id: `u${i}`, input: [{ role: 'user', content: `say ${i}` }], target: String(i), metadata: {} }));

registerTask({
  name: 'test/unwritten-bound',
  version: '1',
  description: 'echo a number (a test fixture)',
  defaultSettings: { temperature: 0 },
  metricDeclarations: [{ name: 'accuracy', meaning: 'answers equal to the target', unit: 'share', direction: 'higher', interval: 'none' }],
  async prepare() {
    return { samples, datasetChecksums: {}, promptVersion: 'unwritten-bound-1', score: scoreWith({ name: 'test/equal', score: ({ sample, output }) => ({ value: output.text === sample.target, explanation: 'equal to the target or not' }) }) };
  },
  metrics(rows) {
    let pass = 0, n = 0;
    for (const { score } of rows) if (score) (n++, score.value === true && pass++);
    return { accuracy: n === 0 ? null : pass / n };
  },
});

/** A store whose saves each wait at `gate` (told to `onSave` with their arguments first) before reaching `inner`. */
function gatedStore(inner: Store, gate: () => Promise<void>, onSave: (args: Parameters<Store['saveOutcome']>) => () => void): Store {
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'saveOutcome') return Reflect.get(target, key, receiver) as unknown;
      return async (...args: Parameters<Store['saveOutcome']>) => {
        const done = onSave(args);
        await gate();
        done();
        return target.saveOutcome(...args);
      };
    },
  }) as Store;
}

const echo = () => createScriptedProvider({ id: 'scripted:echo', respond: (request) => String(request.messages[0]?.content).replace('say ', '') });

const specAt = (concurrency: number): RunSpec => ({
  task: 'test/unwritten-bound',
  models: ['scripted:echo'],
  seed: 1,
  options: {},
  dataDir: '.',
  engine: { concurrency, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false },
});

test('a store slower than the model: no more answers wait unwritten than calls may be in flight, and every one is written', async () => {
  const inner = await openSqliteStore(':memory:');
  let waiting = 0;
  let mostWaiting = 0;
  let release: (() => void) | undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));
  // Every save waits at the gate; the gate opens only once the runner has stopped starting samples.
  const store = gatedStore(
    inner,
    () => gate,
    () => {
      waiting++;
      mostWaiting = Math.max(mostWaiting, waiting);
      return () => waiting--;
    },
  );
  const model = echo();
  const spec = specAt(CONCURRENCY);
  try {
    const running = startRun(spec, { store, providers: { 'scripted:echo': model } });
    // Let the model answer as much as the runner lets it while nothing is written.
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    const answeredWhileBlocked = model.calls.length;
    assert.ok(mostWaiting <= CONCURRENCY, `answers waiting unwritten: ${mostWaiting} (at most ${CONCURRENCY})`);
    assert.ok(answeredWhileBlocked < SAMPLES, `the model answered ${answeredWhileBlocked} of ${SAMPLES} samples while no save was written`);
    // Open the gate for good: every answer is written and the run finishes.
    release?.();
    gate = Promise.resolve();
    const summary = await running;
    assert.equal(summary.status, 'finished');
    assert.equal(summary.models['scripted:echo']?.counts.done, SAMPLES);
    assert.equal(summary.models['scripted:echo']?.metrics['accuracy'], 1);
    assert.equal(model.calls.length, SAMPLES);
    assert.ok(mostWaiting >= 1);
  } finally {
    await inner.close();
  }
});

test('saves are gathered (SaveOptions.gather) while fewer than half the answers that may wait unwritten are waiting, then written at once', async () => {
  const inner = await openSqliteStore(':memory:');
  const gathered: (boolean | undefined)[] = [];
  let release: (() => void) | undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const store = gatedStore(
    inner,
    () => gate,
    (args) => {
      gathered.push(args[2]?.gather);
      return () => undefined;
    },
  );
  const model = echo();
  const spec = specAt(4);
  try {
    const running = startRun(spec, { store, providers: { 'scripted:echo': model } });
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    // Four may wait unwritten: the first two saves may be gathered, the next two are to be written at the next turn.
    assert.deepEqual(gathered, [true, true, false, false]);
    release?.();
    const summary = await running;
    assert.equal(summary.models['scripted:echo']?.counts.done, SAMPLES);
    assert.equal((await inner.results(summary.run)).length, SAMPLES);
  } finally {
    await inner.close();
  }
});

test("the drive's last save is not gathered: no other is coming to join it, and the run's end would wait out the gathering", async () => {
  const inner = await openSqliteStore(':memory:');
  const gathered: (boolean | undefined)[] = [];
  // Saves pass at once: every one finds at most one other on its way, so all but the last may be gathered.
  const store = gatedStore(
    inner,
    () => Promise.resolve(),
    (args) => {
      gathered.push(args[2]?.gather);
      return () => undefined;
    },
  );
  const model = echo();
  try {
    const summary = await startRun({ ...specAt(8), repeats: 2 }, { store, providers: { 'scripted:echo': model } });
    assert.equal(summary.models['scripted:echo']?.counts.done, SAMPLES * 2);
    assert.equal(gathered.length, SAMPLES * 2, 'one save per unit (sample × repeat)');
    assert.equal(gathered.at(-1), false, 'the last save is written at the next turn');
    assert.ok(gathered.slice(0, -1).some((g) => g === true), 'the others may be gathered');
  } finally {
    await inner.close();
  }
});
