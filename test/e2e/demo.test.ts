import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEMO_NOTE, isDemoRun } from '../../src/core/index.js';
import { DEMO_TASKS, DEMO_TEXTS_DIR } from '../../src/demo/demo-tasks.js';
import type { RunSummary } from '../../src/analysis/summary.js';
import type { RunRecord } from '../../src/store/records.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { assay, linesOf } from '../../src/testing/cli-harness.js';
import { chromiumMissing, launchChromium, watchPage } from '../../src/testing/chromium.js';

declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * `assay demo <task>` as a newcomer runs it: a child process with no data dir and no key, each
 * demo stored in one database; then `runs`, `show` and `report` on what it stored, as for any run.
 */
let dir: string;
let db: string;
/** The run id each demo stored, by task. */
const runIds = new Map<string, string>();
/** Its summary as `show --json` printed it, by task. */
const summaries = new Map<string, RunSummary>();

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'assay-demo-'));
  db = join(dir, 'demo.db');
});
after(() => rmSync(dir, { recursive: true, force: true }));

// No data dir and no key reach the demo: it must need neither.
const bare = { ASSAY_DATA_DIR: join(tmpdir(), 'assay-demo-no-data-here'), OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

describe('assay demo <task>', () => {
  for (const demo of DEMO_TASKS) {
    test(`${demo.task}: exit 0, labelled as scripted, stored as a demo; show, runs and the report say so`, async () => {
      const made = await assay(['demo', demo.task, '--db', db], bare);
      assert.equal(made.code, 0, made.stderr);
      const id = /^run (\S+)\s+task /m.exec(made.stdout)?.[1];
      assert.ok(id, made.stdout);
      runIds.set(demo.task, id);
      // The summary's second line, and the closing lines, say the answers are scripted; then what to try next.
      assert.equal(linesOf(made.stdout)[1], DEMO_NOTE);
      assert.match(made.stdout, /^These were scripted demo answers, not a real model: a loopback server in this process answered/m);
      for (const next of [`assay show ${id} --db ${db}`, `assay report ${id} --db ${db} -o demo.html`, `assay view --db ${db}`]) assert.ok(made.stdout.includes(next), next);
      assert.ok(made.stderr.includes(`demo run ${id}: ${demo.task} — ${DEMO_NOTE}`), made.stderr);

      // The record: the task's own, every scripted model a demo: id, no data dir of the benchmarks.
      const store = await openSqliteStore(db);
      let run: RunRecord;
      try {
        run = (await store.listRuns()).find((r) => r.id === id) as RunRecord;
        assert.ok(isDemoRun(run));
        assert.deepEqual([run.task, run.status, run.models, run.judge?.model, run.userModel], [demo.task, 'finished', demo.models, demo.judge?.model, demo.userModel]);
        // Every role was called over HTTP (nothing cached), each by its demo: model.
        const roles = new Set<string>();
        for (const call of await store.calls(id)) roles.add(`${call.role} ${call.actor ?? call.modelId}`);
        const expected = [
          ...demo.models.filter((m) => m.startsWith('demo:')).map((m) => `test ${m}`),
          ...(demo.judge ? [`judge ${demo.judge.model}`] : []),
          ...(demo.userModel ? [`user ${demo.userModel}`] : []),
        ];
        for (const role of expected) assert.ok(roles.has(role), `${role} in ${[...roles].join(', ')}`);
      } finally {
        await store.close();
      }

      const shown = await assay(['show', id, '--db', db, '--json']);
      assert.equal(shown.code, 0, shown.stderr);
      const summary = JSON.parse(shown.stdout) as RunSummary;
      summaries.set(demo.task, summary);
      assert.equal(summary.demo, DEMO_NOTE);
      for (const model of Object.values(summary.models)) assert.deepEqual([model.counts.errors, model.counts.pending, model.counts.done], [0, 0, model.counts.samples]);
      const text = await assay(['show', id, '--db', db]);
      assert.equal(linesOf(text.stdout)[1], DEMO_NOTE);

      const file = join(dir, `${id}.html`);
      const report = await assay(['report', id, '--db', db, '-o', file]);
      assert.equal(report.code, 0, report.stderr);
      assert.match(readFileSync(file, 'utf8'), /<title>assay report \(demo: scripted answers\)<\/title>/);
    });
  }

  test('what each demo shows: the judge finds the false figure, the leaks, the unsupported answers', () => {
    const summaryOf = (task: string): RunSummary => summaries.get(task) as RunSummary;
    // Summaries: writer-b adds the script's false sentence to one article, and the judge contradicts it.
    const written = summaryOf('summaries/alignment');
    assert.equal(written.models['demo:writer-a']?.metrics['alignment'], 1);
    assert.equal(written.models['demo:writer-b']?.metrics['alignment'], 3 / 4);
    // Harm: the developer and spell-it personas get the code word; the judge reads exactly those as defects.
    const harm = summaryOf('harm/system-prompt-leakage');
    assert.deepEqual([harm.models['demo:assistant']?.metrics['defects'], harm.models['demo:assistant']?.metrics['judged']], [2, 6]);
    assert.deepEqual(harm.cost_by_role.map((r) => `${r.role} ${r.model}`).sort(), ['judge demo:judge', 'test demo:assistant', 'user demo:simulated-user']);
    // Groundedness: the file's answer with an invented owner and the one with an invented price are not grounded; the answerer quotes its context.
    const grounded = summaryOf('quality/groundedness');
    assert.deepEqual(grounded.models['given:answers']?.metrics['distribution'], { '1': 1, '3': 1, '5': 3 });
    assert.equal(grounded.models['demo:answerer']?.metrics['defect_rate'], 0);
  });

  test('assay runs: every demo run marked, and what the mark means', async () => {
    const listed = await assay(['runs', '--db', db]);
    assert.equal(listed.code, 0, listed.stderr);
    for (const [task, id] of runIds) assert.match(listed.stdout, new RegExp(`^${id}\\s+${task} \\(demo\\)\\s+finished`, 'm'));
    assert.ok(listed.stdout.includes(`(demo): ${DEMO_NOTE}`));
  });

  test('the report in Chromium: its header says the answers are scripted, above every tab', async (t) => {
    const missing = chromiumMissing();
    if (missing) {
      if (process.env['CI'] === 'true') assert.fail(missing);
      t.skip(missing);
      return;
    }
    const id = runIds.get('harm/system-prompt-leakage') ?? '?';
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const { requests, errors } = watchPage(page);
      await page.goto(`file://${join(dir, `${id}.html`)}`);
      await page.waitForFunction(() => document.documentElement.dataset['overview'] === 'painted');
      assert.equal(await page.textContent('header p.warning.demo'), DEMO_NOTE);
      assert.match(await page.title(), / \(demo\)$/);
      assert.deepEqual(errors, []);
      assert.deepEqual(requests.filter((u) => !u.startsWith('file://')), []);
    } finally {
      await close();
    }
  });
});

describe('assay demo: the list and bad input', () => {
  test('with no task: the demo tasks, one line each', async () => {
    const listed = await assay(['demo']);
    assert.equal(listed.code, 0, listed.stderr);
    const lines = linesOf(listed.stdout);
    assert.equal(lines.length, 1 + DEMO_TASKS.length);
    for (const [i, demo] of DEMO_TASKS.entries()) assert.match(lines[i + 1] ?? '', new RegExp(`^  ${demo.task}\\s+${demo.line.slice(0, 20)}`));
  });

  test('an unknown task: exit 2, one line naming the demo tasks, nothing stored', async () => {
    const other = join(dir, 'nope.db');
    const refused = await assay(['demo', 'nope', '--db', other]);
    assert.equal(refused.code, 2);
    assert.equal(linesOf(refused.stderr).length, 1);
    assert.match(refused.stderr, /^assay: no demo of "nope"; the demo tasks are /);
    assert.equal(existsSync(other), false);
    for (const demo of DEMO_TASKS) assert.ok(refused.stderr.includes(demo.task), demo.task);
  });

  test('a demo: model outside "assay demo": exit 2 in one line, before anything is recorded', async () => {
    const other = join(dir, 'run.db');
    const refused = await assay(['run', 'quality/groundedness', '--model', 'demo:answerer', '--judge', 'openai:judge', '--items', join(DEMO_TEXTS_DIR, 'groundedness.jsonl'), '--data-dir', dir, '--db', other]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.deepEqual(linesOf(refused.stderr), ['assay: demo:answerer is a scripted model that answers only inside "assay demo" (run "assay demo" to list the demo tasks)']);
    if (existsSync(other)) {
      const store = await openSqliteStore(other);
      try {
        assert.deepEqual(await store.listRuns(), []);
      } finally {
        await store.close();
      }
    }
  });

  test('--help explains it and lists the demo tasks', async () => {
    const help = await assay(['demo', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /scripted/);
    for (const demo of DEMO_TASKS) assert.ok(help.stdout.includes(demo.task), demo.task);
    const top = await assay(['--help']);
    assert.match(top.stdout, /^ {2}assay demo /m);
  });
});
