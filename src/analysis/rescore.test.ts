import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Score } from '../core/index.js';
import { createScriptedProvider } from '../models/providers/scripted/scripted-provider.js';
import { startRun } from '../runner/run.js';
import type { RunSpec } from '../runner/run-spec.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { rescoreRun } from './rescore.js';
import { SUMMARY_PAGE } from './summary.js';

/**
 * `rescoreRun` reads the run a page at a time and writes only the scores that differ from the
 * stored ones, one transaction per model and repeat. Held here on a cases run of 2 models × 2
 * repeats over more samples than a page holds, whose stored scores were made wrong in every page.
 */
const CASES = 300;
const answerOf = (question: string, model: string, seed: number): string => {
  const i = Number(/\d+/.exec(question)?.[0]);
  return (i + seed + (model.endsWith('b') ? 1 : 0)) % 3 === 0 ? 'no' : 'yes';
};

test('rescoreRun: across pages, the scores made wrong are put back and only they are written; the others are left as stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'assay-rescore-'));
  const store = await openSqliteStore(join(dir, 'rescore.db'));
  try {
    const file = join(dir, 'cases.jsonl');
    writeFileSync(file, Array.from({ length: CASES }, (_, i) => JSON.stringify({ id: `c${i}`, input: `Question ${i}?`, expect: [{ contains: 'yes' }] })).join('\n'));
    const models = ['scripted:a', 'scripted:b'];
    const providers = Object.fromEntries(
      models.map((id) => [
        id,
        createScriptedProvider({
          id,
          respond: (request) => {
            const message = request.messages.at(-1);
            return answerOf(typeof message?.content === 'string' ? message.content : '', id, request.settings?.seed ?? 0);
          },
        }),
      ]),
    );
    const spec: RunSpec = {
      task: 'cases', models, seed: 5, options: { task: { file } }, dataDir: dir, repeats: 2,
      engine: { concurrency: 8, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: false },
    };
    const summary = await startRun(spec, { store, providers });
    const runId = summary.run;
    const stored = await store.results(runId, undefined, { outputs: false });
    assert.equal(stored.length, CASES * 4);
    assert.ok(CASES * 4 > 2 * SUMMARY_PAGE, 'the run spans several pages');

    // Every 7th sample's score made wrong (its verdict flipped) for one model and repeat: spread over every page.
    const wrong = new Map<string, Map<string, Score>>();
    for (const r of stored) {
      const i = Number(r.sampleId.slice(1));
      if (i % 7 !== 0 || r.status !== 'done' || !r.score) continue;
      const key = `${r.modelId}#${r.repeat ?? 0}`;
      if (!wrong.has(key)) wrong.set(key, new Map());
      wrong.get(key)?.set(r.sampleId, { ...r.score, value: !r.score.value });
    }
    for (const [key, scores] of wrong) {
      const [modelId, repeat] = key.split('#') as [string, string];
      await store.updateScores(runId, modelId, scores, Number(repeat));
    }
    const madeWrong = [...wrong.values()].reduce((n, m) => n + m.size, 0);
    assert.equal(madeWrong, 4 * Math.ceil(CASES / 7));

    // What the re-score writes, by model and repeat.
    const written: { modelId: string; repeat: number; ids: string[] }[] = [];
    const update = store.updateScores.bind(store);
    store.updateScores = async (id, modelId, scores, repeat) => {
      written.push({ modelId, repeat: repeat ?? 0, ids: [...scores.keys()] });
      return update(id, modelId, scores, repeat);
    };
    const outcome = await rescoreRun(store, runId);

    assert.equal(outcome.rescored, CASES * 4);
    assert.equal(outcome.changed, madeWrong);
    assert.deepEqual(await store.results(runId, undefined, { outputs: false }), stored, 'every score as the run stored it');
    assert.deepEqual(
      written.map((w) => `${w.modelId}#${w.repeat}`).sort(),
      [...wrong.keys()].sort(),
      'one write per model and repeat',
    );
    for (const w of written) assert.deepEqual(w.ids, [...(wrong.get(`${w.modelId}#${w.repeat}`)?.keys() ?? [])], 'only the scores that differ are written');
    assert.deepEqual(outcome.summary, summary, 'the summary of the re-scored run is the run’s own');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
