import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { InputError, sampleIds, type GenerateResult, type Sample } from '../../core/index.js';
import { openMetaTool } from '../../datasets/metatool/index.js';
import { metatoolFile, needsData, testDataDir } from '../../testing/test-data.js';
import type { Metrics, PreparedTask, ScoredSample, Task, TaskOptions } from '../task.js';
import { wilsonInterval } from '../../metrics/intervals.js';
import { metatoolTasks } from './index.js';
import type { AwarenessMeta, SelectionMeta } from './metadata.js';
import { asSelect } from './baselines/questions.js';

const dataDir = testDataDir();
const task = (name: string): Task => metatoolTasks.find((t) => t.name === `metatool/${name}`) as Task;
const prepare = (name: string, options: TaskOptions = {}, seed = 1): Promise<PreparedTask> => task(name).prepare({ dataDir, seed, options });
/** A task's metrics over rows, as a stored run's summary computes them. */
const metricsOf = (name: string, rows: Iterable<ScoredSample>): Metrics => task(name).metrics(rows, { options: {}, facts: undefined });
/** Wilson's 95% interval of hits of n, as the metrics carry it beside a share. */
const wilson = (hits: number, n: number): { low: number; high: number } | null => {
  const ci = wilsonInterval(hits, n);
  return ci && { low: ci.low, high: ci.high };
};
const meta = (s: Sample): SelectionMeta => s.metadata as SelectionMeta;
const content = (s: Sample): string => (s.input[0] as { content: string }).content;
const output = (text: string): GenerateResult => ({ text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] });

/**
 * `--limit`'s samples are the first of the whole list, built on demand: the ids the list gives
 * without building its samples are theirs, in order, and a sample read twice (the engine stores
 * it, then calls it) is built the same, and again. For each option variant and each limit.
 */
async function assertLimitBuiltOnDemand(name: string, variants: readonly TaskOptions[], limits: readonly number[]): Promise<void> {
  for (const options of variants) {
    const all = await prepare(name, options);
    for (const limit of limits) {
      const some = await prepare(name, { ...options, limit });
      assert.equal(some.samples.length, limit);
      assert.deepEqual([...some.samples], [...all.samples].slice(0, limit));
      assert.deepEqual([...sampleIds(some.samples)], [...all.samples].slice(0, limit).map((s) => s.id));
    }
    assert.deepEqual([...sampleIds(all.samples)], [...all.samples].map((s) => s.id));
    assert.deepEqual(all.samples.at(300), all.samples.at(300));
    // Built anew at each read, none kept: kept between the store's read and the call's, samples
    // outlived two scavenges and filled V8's old space (docs/benchmarks.md, issue 29).
    assert.notEqual(all.samples.at(300), all.samples.at(300));
    assert.equal(content(all.samples.at(0) as Sample), content(all.samples.at(0) as Sample));
  }
}

// Reference data read here directly, independently of the loader.
const readJson = <T>(relative: string): T => JSON.parse(readFileSync(metatoolFile(relative), 'utf8')) as T;
const skip = needsData('metatool');
let shippedNeighbours: Record<string, string[]>;
let task1: { thought_prompt: string; label: string; query: string }[];
let subtask3: { action_prompt: string; query: string; tool: string }[];
let subtask4: { action_prompt: string; query: string; tool: string[] }[];
let multiGolden: { query: string; tool: string[] }[];
before(() => {
  if (skip) return;
  shippedNeighbours = readJson('derived/tool_neighbors_top20.json');
  task1 = readJson('tmp_dataset/Task1.json');
  subtask3 = readJson('tmp_dataset/Task2-Subtask3.json');
  subtask4 = readJson('tmp_dataset/Task2-Subtask4.json');
  multiGolden = readJson('data/multi_tool_query_golden.json');
});

async function rejectsInput(promise: Promise<unknown>, fragment: string): Promise<void> {
  await assert.rejects(promise, (e: unknown) => e instanceof InputError && e.message.includes(fragment));
}

describe('registry', () => {
  it('has the five tasks, temperature 0, version 2, strict and paper readings', () => {
    assert.deepEqual(
      metatoolTasks.map((t) => t.name),
      ['metatool/awareness', 'metatool/similar', 'metatool/scenario', 'metatool/reliability', 'metatool/multi'],
    );
    for (const t of metatoolTasks) {
      assert.equal(t.version, '2');
      assert.deepEqual(t.answerParsers, ['strict', 'paper']);
      assert.deepEqual(t.defaultSettings, { temperature: 0 });
    }
  });
});

describe('metatool/similar', { skip }, () => {
  it('gold + its 9 nearest tools, shuffled; gold positions spread over 1..10', async () => {
    const prepared = await prepare('similar');
    assert.equal(prepared.samples.length, 199 * 5);
    const positions = new Set<number>();
    for (const s of prepared.samples) {
      const m = meta(s);
      const gold = m.gold[0] as string;
      assert.equal(s.target, gold);
      assert.match(s.id, new RegExp(`^similar/${gold.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[0-4]$`));
      assert.deepEqual([...m.candidates].sort(), [...(shippedNeighbours[gold] as string[]).slice(0, 10)].sort(), s.id);
      assert.equal(m.candidates[(m.goldPositions[0] as number) - 1], gold);
      assert.deepEqual(m.nearest, (shippedNeighbours[gold] as string[]).slice(1, 6));
      positions.add(m.goldPositions[0] as number);
      // The hints carry the same list and descriptions the prompt shows.
      assert.ok(s.hints);
      const hints = asSelect(s.hints);
      assert.deepEqual(hints.candidates.map((c) => c.name), m.candidates);
      assert.equal(hints.maxSelections, 1);
      assert.equal(hints.allowNone, true);
      for (const [i, c] of hints.candidates.entries()) assert.ok(content(s).includes(`${i + 1}. tool name: ${c.name}, tool description: ${c.description}\n`));
      assert.ok(content(s).includes(`[User's Query Start]\n${m.query}\n[User's Query End]`));
    }
    assert.deepEqual([...positions].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(Object.keys(prepared.datasetChecksums).sort(), [
      'metatool/big_tool_des.json',
      'metatool/data/all_clean_data.csv',
      'metatool/derived/tool_neighbors_top20.json',
      'metatool/plugin_des.json',
      'metatool/plugin_info.json',
    ]);
    assert.equal(prepared.promptVersion, 'metatool-prompts/1');
  });

  it('picks perTool distinct queries of each tool', async () => {
    const { pool } = (await openMetaTool(dataDir).catalogue()).value;
    const prepared = await prepare('similar', { perTool: 2 });
    assert.equal(prepared.samples.length, 199 * 2);
    for (const s of prepared.samples) assert.equal(pool.toolOfQuery.get(meta(s).query), meta(s).gold[0]);
    const pairs = new Set([...prepared.samples].map((s) => meta(s).query));
    assert.equal(pairs.size, prepared.samples.length);
  });

  it('is deterministic for a seed, and another seed shuffles differently', async () => {
    const a = await prepare('similar', {}, 1);
    const b = await prepare('similar', {}, 1);
    assert.deepEqual([...a.samples], [...b.samples]);
    const c = await prepare('similar', {}, 2);
    const orderOf = new Map([...a.samples].map((s) => [s.id, meta(s).candidates.join('|')]));
    const changed = [...c.samples].filter((s) => orderOf.has(s.id) && orderOf.get(s.id) !== meta(s).candidates.join('|')).length;
    assert.ok(changed > 0.95 * c.samples.length, `only ${changed} of ${c.samples.length} lists changed order`);
    const queries = (p: PreparedTask): string => [...p.samples].map((s) => meta(s).query).join('\n');
    assert.notEqual(queries(a), queries(c));
  });

  it('five-shot: 3 listed non-gold tools and 2 "None", never the own query or a gold query', async () => {
    const { pool } = (await openMetaTool(dataDir).catalogue()).value;
    const prepared = await prepare('similar', { shots: 5 });
    for (const s of prepared.samples) {
      const m = meta(s);
      const examples = m.examples ?? [];
      assert.equal(examples.length, 5);
      for (const e of examples) {
        assert.notEqual(e.query, m.query);
        assert.notEqual(pool.toolOfQuery.get(e.query), m.gold[0]);
        if (e.tool === null) assert.ok(!m.candidates.includes(pool.toolOfQuery.get(e.query) as string));
        else assert.equal(pool.toolOfQuery.get(e.query), e.tool);
      }
      assert.equal(examples.filter((e) => e.tool !== null && m.candidates.includes(e.tool)).length, 3);
      assert.ok(content(s).endsWith(`User query: "${m.query}" tool: `));
    }
  });

  it('limit keeps the first N samples', async () => {
    const all = await prepare('similar');
    const some = await prepare('similar', { limit: 7 });
    assert.deepEqual([...some.samples], [...all.samples].slice(0, 7));
    // Built on demand: the ids the list gives without building its samples are theirs, in order.
    assert.deepEqual([...sampleIds(all.samples)], [...all.samples].map((s) => s.id));
    assert.deepEqual([...sampleIds(some.samples)], [...all.samples].slice(0, 7).map((s) => s.id));
  });

  it('upstream prompts are not available', async () => {
    await rejectsInput(prepare('similar', { prompts: 'upstream' }), 'Task2-Subtask1.json/Task2-Subtask2.json are not shipped');
  });
});

describe('metatool/scenario', { skip }, () => {
  it('candidates are the scenario file list, shuffled; perTool queries per listed tool', async () => {
    const prepared = await prepare('scenario');
    const scenarios = ['Finance Staff', 'Housewife', 'Software Engineer', 'Students', 'TopTool_top10', 'TopTool_top15', 'TopTool_top5', 'artists&designers', 'elders'];
    const lists = new Map(scenarios.map((name) => [name, readJson<{ Tools: string[] }>(`scenario/${name}.json`).Tools]));
    // Seven lists of 10 tools, one of 15 and one of 5: 90 tools, 5 queries each.
    assert.equal(prepared.samples.length, 90 * 5);
    for (const s of prepared.samples) {
      const m = meta(s);
      const list = lists.get(m.scenario as string) as string[];
      assert.deepEqual([...m.candidates].sort(), [...list].sort(), s.id);
      assert.ok(list.includes(m.gold[0] as string));
      assert.equal(s.id.startsWith(`scenario/${m.scenario}/${m.gold[0]}/`), true);
    }
    assert.ok([...prepared.samples].some((s) => s.id === 'scenario/elders/NewsTool/0'));
    assert.ok([...prepared.samples].some((s) => meta(s).candidates.join() !== (lists.get(meta(s).scenario as string) as string[]).join()));
    assert.equal(Object.keys(prepared.datasetChecksums).filter((k) => k.startsWith('metatool/scenario/')).length, 9);
  });

  it('reports csr per scenario and per position', async () => {
    const prepared = await prepare('scenario', { limit: 20 });
    const rows = [...prepared.samples].map((s) => ({ sample: s, score: prepared.score(s, output(meta(s).gold[0] as string)) }));
    const metrics = metricsOf('scenario', rows);
    assert.equal(metrics.csr, 1);
    assert.deepEqual(metrics.csr_by_scenario, { 'Finance Staff': 1 });
    assert.ok(metrics.csr_by_position && typeof metrics.csr_by_position === 'object');
  });

  it('upstream prompts are not available', async () => {
    await rejectsInput(prepare('scenario', { prompts: 'upstream' }), 'use --prompts assay');
  });

  it('limit keeps the first N samples, built on demand (zero- and five-shot)', async () => {
    await assertLimitBuiltOnDemand('scenario', [{ shots: 0 }, { shots: 5 }], [7]);
  });
});

describe('metatool/reliability', { skip }, () => {
  it('10 random tools from outside the query tool’s top-20; the answer is None', async () => {
    const prepared = await prepare('reliability');
    assert.equal(prepared.samples.length, 199 * 5);
    const lists = new Set<string>();
    for (const s of prepared.samples) {
      const m = meta(s);
      assert.equal(s.target, null);
      assert.deepEqual(m.gold, []);
      assert.equal(m.candidates.length, 10);
      assert.equal(new Set(m.candidates).size, 10);
      for (const c of m.candidates) assert.ok(!(shippedNeighbours[m.queryTool as string] as string[]).includes(c), `${s.id}: ${c}`);
      lists.add([...m.candidates].sort().join());
    }
    // Drawn per sample, not per tool: almost every list differs.
    assert.ok(lists.size > 0.95 * prepared.samples.length);
    const none = [...prepared.samples].map((s) => ({ sample: s, score: prepared.score(s, output('None.')) }));
    const n = prepared.samples.length;
    assert.deepEqual(metricsOf('reliability', none), { csr: 1, csr_ci95: wilson(n, n), no_verdict: 0, no_verdict_ci95: wilson(0, n), hallucinated: 0, hallucinated_ci95: wilson(0, n) });
  });

  it('upstream: replays Task2-Subtask3.json byte for byte, with the shown lists recovered', async () => {
    const prepared = await prepare('reliability', { prompts: 'upstream' });
    assert.equal(prepared.promptVersion, 'metatool-prompts/1:upstream');
    assert.equal(prepared.samples.length, 995);
    assert.ok(Object.hasOwn(prepared.datasetChecksums, 'metatool/tmp_dataset/Task2-Subtask3.json'));
    [...prepared.samples].forEach((s, i) => {
      const item = subtask3[i] as (typeof subtask3)[number];
      assert.equal(content(s), item.action_prompt);
      const names = [...item.action_prompt.matchAll(/^\d+\. tool name: (.+?), tool description: /gm)].map((m) => m[1]);
      assert.deepEqual(meta(s).candidates, names);
      assert.equal(meta(s).queryTool, item.tool);
      assert.equal(meta(s).shots, 5);
    });
    assert.equal(prepared.samples.at(0)?.id, 'reliability/timeport/0');
    await rejectsInput(prepare('reliability', { prompts: 'upstream', shots: 0 }), 'five-shot');
  });

  it('limit keeps the first N samples, built on demand (zero- and five-shot)', async () => {
    await assertLimitBuiltOnDemand('reliability', [{ shots: 0 }, { shots: 5 }], [7]);
  });
});

describe('metatool/multi', { skip }, () => {
  it('each query twice; both golds + 8 tools outside both golds’ top-20; one shared order per query', async () => {
    const prepared = await prepare('multi');
    assert.equal(prepared.samples.length, 497 * 2);
    for (let i = 0; i < 497; i++) {
      const atMost = prepared.samples.at(2 * i) as Sample;
      const must = prepared.samples.at(2 * i + 1) as Sample;
      assert.equal(atMost.id, `multi/${i}/at-most-two`);
      assert.equal(must.id, `multi/${i}/must-two`);
      const gold = (multiGolden[i] as { tool: string[] }).tool;
      const m = meta(atMost);
      assert.deepEqual(atMost.target, gold);
      assert.deepEqual(m.gold, gold);
      assert.deepEqual(meta(must).candidates, m.candidates);
      assert.equal(new Set(m.candidates).size, 10);
      const excluded = new Set(gold.flatMap((g) => shippedNeighbours[g] as string[]));
      assert.deepEqual(m.candidates.filter((c) => excluded.has(c)).sort(), [...gold].sort());
      assert.ok(content(atMost).includes('(you can choose two tools at most)'));
      assert.ok(content(must).includes('Please return two names of the tool you will choose.'));
      assert.ok(atMost.hints?.kind === 'select' && atMost.hints.allowNone && atMost.hints.maxSelections === 2);
      assert.ok(must.hints?.kind === 'select' && !must.hints.allowNone);
    }
  });

  it('five-shot is refused', async () => {
    await rejectsInput(prepare('multi', { shots: 5 }), 'five-shot is not available');
  });

  it('limit keeps the first N samples, built on demand', async () => {
    await assertLimitBuiltOnDemand('multi', [{}], [0, 7, 8]);
  });

  it('upstream: the shipped must-two prompts, golds at positions 7 and 8', async () => {
    const prepared = await prepare('multi', { prompts: 'upstream' });
    assert.equal(prepared.samples.length, 497);
    [...prepared.samples].forEach((s, i) => {
      assert.equal(s.id, `multi/${i}/must-two`);
      assert.equal(content(s), (subtask4[i] as { action_prompt: string }).action_prompt);
      assert.deepEqual([...meta(s).goldPositions].sort(), [7, 8]);
    });
  });

  it('query-blind check: "answer positions 7 and 8" wins on the upstream prompts and fails on assay’s', async () => {
    const blind = (prepared: PreparedTask): number => {
      const rows = [...prepared.samples].map((s) => {
        const c = meta(s).candidates;
        return { sample: s, score: prepared.score(s, output(`${c[6]}\n${c[7]}`)) };
      });
      return metricsOf('multi', rows).csr_must2 as number;
    };
    assert.equal(blind(await prepare('multi', { prompts: 'upstream' })), 1);
    // Shuffled lists put both golds at 7 and 8 with probability 2/(10·9) ≈ 2%.
    const assay = blind(await prepare('multi'));
    assert.ok(assay < 0.1, `query-blind rule scored ${assay} on assay prompts`);
  });
});

describe('metatool/awareness', { skip }, () => {

  it('limit keeps the first N samples, built on demand', async () => {
    await assertLimitBuiltOnDemand('awareness', [{}, { shots: 5 }], [0, 7]);
  });
  it('zero-shot: the thought prompt over each of the 1,040 items', async () => {
    const prepared = await prepare('awareness');
    assert.equal(prepared.samples.length, 1040);
    [...prepared.samples].forEach((s, i) => {
      const item = task1[i] as (typeof task1)[number];
      const m = s.metadata as AwarenessMeta;
      assert.equal(s.id, `awareness/${i}`);
      assert.equal(s.target, item.label === 'positive');
      assert.equal(m.query, item.query);
      // The shipped prompts start with the zero-shot prompt, examples follow it.
      assert.ok(item.thought_prompt.startsWith(`${content(s)}\nHere are some examples:`), s.id);
      assert.deepEqual(s.hints, { kind: 'yes-no', query: item.query });
    });
  });

  it('five-shot: five other items as examples, never the item itself', async () => {
    const prepared = await prepare('awareness', { shots: 5 });
    const labelOf = new Map(task1.map((t) => [t.query, t.label === 'positive']));
    for (const s of prepared.samples) {
      const m = s.metadata as AwarenessMeta;
      assert.equal(m.examples?.length, 5);
      for (const e of m.examples ?? []) {
        assert.notEqual(e.query, m.query);
        assert.equal(labelOf.get(e.query), e.needsTool);
        assert.ok(content(s).includes(`query: "${e.query}" answer: ${e.needsTool ? 'Yes' : 'No'}\n`));
      }
    }
  });

  it('upstream: the shipped five-shot prompts; an explicit zero-shot is refused', async () => {
    const prepared = await prepare('awareness', { prompts: 'upstream', limit: 3 });
    assert.deepEqual([...prepared.samples].map(content), task1.slice(0, 3).map((t) => t.thought_prompt));
    await rejectsInput(prepare('awareness', { prompts: 'upstream', shots: 0 }), 'upstream Task1 prompts are five-shot');
  });

  it('scores with the chosen parser and reports the classification metrics', async () => {
    const strict = await prepare('awareness', { limit: 4 });
    const paper = await prepare('awareness', { limit: 4, parser: 'paper' });
    const answer = 'I think no tool is needed.';
    const s = strict.samples.at(0) as Sample;
    assert.equal(strict.score(s, output(answer)).value, null);
    assert.equal(paper.score(s, output(answer)).answer, 'yes');
    // Task1 items 0–3 are positive, negative, positive, negative. Answering "yes" to all four:
    // tp 2, fp 2 → accuracy 2/4, precision 2/4, recall 2/2, F1 = 2·0.5·1/1.5 = 2/3.
    assert.deepEqual([...strict.samples].map((x) => x.target), [true, false, true, false]);
    const rows = [...strict.samples].map((sample) => ({ sample, score: strict.score(sample, output('yes')) }));
    const metrics = metricsOf('awareness', rows);
    assert.deepEqual({ ...metrics, f1: Math.round((metrics.f1 as number) * 1e12) / 1e12 }, { accuracy: 0.5, accuracy_ci95: wilson(2, 4), precision: 0.5, precision_ci95: wilson(2, 4), recall: 1, recall_ci95: wilson(2, 2), f1: Math.round((2 / 3) * 1e12) / 1e12, no_verdict: 0, no_verdict_ci95: wilson(0, 4), confusion: { tp: 2, fp: 2, tn: 0, fn: 0, no_verdict: 0 } });
  });
});

describe('determinism', { skip }, () => {
  it('every task builds identical samples for the same seed and different ones for another seed', async () => {
    const cases: [string, TaskOptions][] = [
      ['awareness', { shots: 5 }],
      ['scenario', {}],
      ['scenario', { shots: 5 }],
      ['reliability', {}],
      ['reliability', { shots: 5 }],
      ['multi', {}],
    ];
    for (const [name, options] of cases) {
      const a = await prepare(name, options, 11);
      // Compared sample by sample: a list built on demand is not an array.
      assert.deepEqual([...(await prepare(name, options, 11)).samples], [...a.samples], name);
      assert.notDeepEqual([...(await prepare(name, options, 12)).samples], [...a.samples], name);
    }
  });
});

describe('options', () => {
  it('rejects bad values with an InputError naming the task', async () => {
    await rejectsInput(prepare('similar', { perTool: 0 }), 'metatool/similar: perTool');
    await rejectsInput(prepare('similar', { shots: 3 as 0 }), 'shots must be 0 or 5');
    await rejectsInput(prepare('awareness', { parser: 'loose' as 'strict' }), 'parser');
    await rejectsInput(prepare('reliability', { limit: -1 }), 'limit');
  });
});
