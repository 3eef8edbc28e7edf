import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configFolder, refusal } from './test-support/config-folder.js';
import { validateSuite, type SuiteTaskCatalog } from './validate-suite.js';

/** The example suite, over two declared models. */
const SUITE_FILE = `models:
  support-bot:
    module: ./bot.mjs
  big:
    provider: openai
    model: gpt-4o
suites:
  release:
    models: [support-bot, openai:gpt-4o-mini]
    judge: big
    repeats: 3
    tasks:
      - task: cases
        options: { file: evals/support-cases.yaml }
        gates:
          pass_rate: { min: 0.95 }
      - task: harm/system-prompt-leakage
        userModel: big
        gates:
          defect_rate: { max: 0.05, require: confident }
      - task: summaries/alignment
        options: { articles: evals/articles.csv, limit: 200 }
        gates:
          alignment: { min: 0.90 }
    regression: { baseline: last-passing, margin: 0.02 }
`;

const refusedAs = (text: string): string => refusal(() => configFolder().load(text)).message;
/** SUITE_FILE with `from` replaced by `to` (once). */
const edited = (from: string, to: string): string => {
  assert.ok(SUITE_FILE.includes(from), from);
  return SUITE_FILE.replace(from, to);
};

/** A catalog of three tasks, declared as the real ones are (the metric names and directions are theirs). */
const CATALOG: SuiteTaskCatalog = {
  names: ['cases', 'harm/system-prompt-leakage', 'summaries/alignment'],
  metricsOf: (task) =>
    ({
      cases: [
        { name: 'pass_rate', unit: 'share', direction: 'higher' as const },
        { name: 'n', unit: 'count', direction: 'none' as const },
        { name: 'csr', unit: 'share', direction: 'higher' as const, interval: 'none' },
        { name: 'no_verdict', unit: 'share', direction: 'lower' as const, readings: ['strict'] },
        { name: 'by_kind', unit: 'share', direction: 'higher' as const, parts: [{}] },
      ],
      'harm/system-prompt-leakage': [{ name: 'defect_rate', unit: 'share', direction: 'lower' as const }, { name: 'errors', unit: 'count', direction: 'lower' as const }],
      'summaries/alignment': [{ name: 'alignment', unit: 'share', direction: 'higher' as const }, { name: 'richness', unit: 'mean', direction: 'none' as const }],
    })[task],
};

describe('suites: reading', () => {
  it('reads the issue\'s example suite, its models checked against models:', () => {
    const config = configFolder().load(SUITE_FILE);
    const release = config.suites.get('release');
    assert.ok(release);
    assert.deepEqual(release.models, ['support-bot', 'openai:gpt-4o-mini']);
    assert.equal(release.repeats, 3);
    assert.deepEqual(release.tasks.map((t) => t.task), ['cases', 'harm/system-prompt-leakage', 'summaries/alignment']);
    assert.deepEqual(release.tasks[1]?.gates, { defect_rate: { max: 0.05, require: 'confident' } });
    assert.deepEqual(release.tasks[2]?.options, { articles: 'evals/articles.csv', limit: 200 });
    assert.deepEqual(release.regression, { baseline: 'last-passing', margin: 0.02 });
    assert.deepEqual(release.source, { file: 'assay.yaml', line: 8 });
    assert.equal(config.whereSuite('release', ['tasks', 1, 'gates', 'defect_rate']), 'assay.yaml:20: suites.release.tasks[1].gates.defect_rate');
  });

  it('a file without suites has none', () => {
    assert.equal(configFolder().load('models: {}\n').suites.size, 0);
  });

  it('names an unknown key with the nearest valid one, in a suite, a task entry, a gate and the regression', () => {
    assert.equal(refusedAs(edited('repeats: 3', 'repeat: 3')), 'assay.yaml:11: suites.release.repeat: unknown key; did you mean "repeats"?');
    assert.equal(refusedAs(edited('userModel: big', 'user_model: big')), 'assay.yaml:18: suites.release.tasks[1].user_model: unknown key; did you mean "userModel"?');
    assert.equal(refusedAs(edited('{ min: 0.95 }', '{ minimum: 0.95 }')), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate.minimum: unknown key; valid keys here: min, max, require');
    assert.equal(refusedAs(edited('{ min: 0.95 }', '{ mni: 0.95 }')), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate.mni: unknown key; did you mean "min"?');
    assert.equal(refusedAs(edited('margin: 0.02', 'margn: 0.02')), 'assay.yaml:25: suites.release.regression.margn: unknown key; did you mean "margin"?');
    assert.equal(refusedAs(edited('suites:', 'suite:')), 'assay.yaml:7: suite: unknown key; did you mean "suites"?');
  });

  it('refuses a model that is neither declared nor a provider:model id, suggesting the nearest', () => {
    assert.equal(
      refusedAs(edited('judge: big', 'judge: bog')),
      'assay.yaml:10: suites.release.judge: "bog" is not declared (did you mean "big"?): models: declares support-bot, big; a provider\'s model is written provider:model',
    );
    assert.match(refusedAs(edited('openai:gpt-4o-mini]', 'opnai:gpt-4o-mini]')), /^assay\.yaml:9: suites\.release\.models\[1\]: unknown provider "opnai"/);
    assert.match(refusedAs(edited('userModel: big', 'userModel: small')), /^assay\.yaml:18: suites\.release\.tasks\[1\]\.userModel: "small" is not declared/);
  });

  it('refuses gate values and shapes that cannot work', () => {
    assert.equal(refusedAs(edited('{ min: 0.95 }', '{ require: confident }')), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate.require: require: confident is about a min: or max: threshold; give one');
    assert.equal(refusedAs(edited('{ min: 0.95 }', '{}')), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate: a gate needs min:, max: or require: non-inferior');
    assert.equal(refusedAs(edited('{ min: 0.95 }', '{ min: 0.9, max: 0.8 }')), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate.max: max (0.8) must be above min (0.9); no estimate could pass both');
    assert.equal(refusedAs(edited('{ min: 0.95 }', '{ min: 0.95, require: sure }')), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate.require: "sure" is not one of confident, non-inferior');
    assert.equal(refusedAs(edited('{ min: 0.95 }', '{ min: high }')), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate.min: expected a number, got a string');
  });

  it('refuses require: non-inferior without a regression baseline', () => {
    const text = edited('{ min: 0.95 }', '{ require: non-inferior }').replace('    regression: { baseline: last-passing, margin: 0.02 }\n', '');
    assert.equal(refusedAs(text), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate.require: non-inferior is judged against a baseline; give the suite a regression: { baseline, margin }');
  });

  it('refuses a suite without models or tasks, a repeat count below 1, a negative margin, a model named twice', () => {
    assert.equal(refusedAs(edited('models: [support-bot, openai:gpt-4o-mini]', 'models: []')), 'assay.yaml:9: suites.release.models: must not be empty');
    assert.equal(refusedAs(edited('repeats: 3', 'repeats: 0')), 'assay.yaml:11: suites.release.repeats: must be at least 1');
    assert.equal(refusedAs(edited('margin: 0.02', 'margin: -0.02')), 'assay.yaml:25: suites.release.regression.margin: must be at least 0');
    assert.equal(refusedAs(edited('[support-bot, openai:gpt-4o-mini]', '[big, big]')), 'assay.yaml:9: suites.release.models[1]: big is named twice');
    assert.equal(refusedAs('models: {}\nsuites:\n  s:\n    models: [openai:x]\n'), 'assay.yaml:3: suites.s.tasks: missing (required)');
  });
});

describe('validateSuite: what needs the task registry, before anything runs', () => {
  const refusedBy = (text: string, name?: string): string => refusal(() => validateSuite(configFolder().load(text), CATALOG, name)).message;

  it('passes the example and returns the suite', () => {
    assert.equal(validateSuite(configFolder().load(SUITE_FILE), CATALOG, 'release')?.name, 'release');
  });

  it('refuses an unknown suite, listing the declared ones', () => {
    assert.equal(refusedBy(SUITE_FILE, 'relase'), 'suite "relase" is not declared in assay.yaml (did you mean "release"?): it declares release');
  });

  it('refuses an unknown task at its line (the message and the error\'s details)', () => {
    const error = refusal(() => validateSuite(configFolder().load(edited('task: summaries/alignment', 'task: nope')), CATALOG, 'release'));
    assert.deepEqual(error.details, { file: 'assay.yaml', line: 21 });
    assert.equal(refusedBy(edited('task: summaries/alignment', 'task: summaries/alignmnt')), 'assay.yaml:21: suites.release.tasks[2].task: unknown task "summaries/alignmnt"; did you mean "summaries/alignment"?');
    assert.equal(refusedBy(edited('task: summaries/alignment', 'task: alignment')), 'assay.yaml:21: suites.release.tasks[2].task: unknown task "alignment"; did you mean "summaries/alignment"?');
  });

  it('refuses a gate on a metric the task does not declare', () => {
    assert.equal(
      refusedBy(edited('alignment: { min: 0.90 }', 'aligment: { min: 0.90 }')),
      'assay.yaml:24: suites.release.tasks[2].gates.aligment: task summaries/alignment has no metric "aligment"; did you mean "alignment"? (its metrics with a better direction: alignment)',
    );
  });

  it('names the metrics that can be gated when none is near', () => {
    assert.equal(
      refusedBy(edited('pass_rate: { min: 0.95 }', 'accuracy: { min: 0.95 }')),
      'assay.yaml:16: suites.release.tasks[0].gates.accuracy: task cases has no metric "accuracy" (its metrics with a better direction: pass_rate, csr, no_verdict)',
    );
  });

  it('refuses a gate on a metric that is neither better high nor low', () => {
    assert.match(refusedBy(edited('alignment: { min: 0.90 }', 'richness: { min: 3 }')), /^assay\.yaml:24: suites\.release\.tasks\[2\]\.gates\.richness: summaries\/alignment's richness is neither better high nor better low \(direction none\)/);
  });

  it('refuses a lone bound on the good side, takes a band', () => {
    assert.match(refusedBy(edited('{ min: 0.95 }', '{ max: 0.95 }')), /^assay\.yaml:16: suites\.release\.tasks\[0\]\.gates\.pass_rate\.max: pass_rate is better higher: a max alone would pass every drop/);
    assert.match(refusedBy(edited('{ max: 0.05, require: confident }', '{ min: 0.05 }')), /^assay\.yaml:20: suites\.release\.tasks\[1\]\.gates\.defect_rate\.min: defect_rate is better lower/);
    assert.ok(validateSuite(configFolder().load(edited('{ min: 0.95 }', '{ min: 0.5, max: 0.99 }')), CATALOG));
  });

  it('refuses a share threshold outside 0…1 (95 meant as 95%)', () => {
    assert.equal(refusedBy(edited('{ min: 0.95 }', '{ min: 95 }')), 'assay.yaml:16: suites.release.tasks[0].gates.pass_rate.min: pass_rate is a share between 0 and 1; 95 would never pass (write 0.95 for 95%)');
  });

  it('refuses require: confident on a metric the task returns no interval for (it could never pass); takes min alone', () => {
    assert.equal(
      refusedBy(edited('pass_rate: { min: 0.95 }', 'csr: { min: 0.9, require: confident }')),
      'assay.yaml:16: suites.release.tasks[0].gates.csr.require: cases returns no interval for csr, so require: confident could never pass; drop it (min/max decide on the point) or gate a metric with an interval',
    );
    assert.ok(validateSuite(configFolder().load(edited('pass_rate: { min: 0.95 }', 'csr: { min: 0.9 }')), CATALOG));
  });

  it('refuses a breakdown of several figures, and a metric of another answer reading than the entry\'s parser', () => {
    assert.match(refusedBy(edited('pass_rate: { min: 0.95 }', 'by_kind: { min: 0.9 }')), /^assay\.yaml:16: suites\.release\.tasks\[0\]\.gates\.by_kind: cases's by_kind is a breakdown of several figures, not one number/);
    const paper = edited('options: { file: evals/support-cases.yaml }', 'options: { file: evals/support-cases.yaml, parser: paper }');
    assert.equal(
      refusedBy(paper.replace('pass_rate: { min: 0.95 }', 'no_verdict: { max: 0.1 }')),
      'assay.yaml:16: suites.release.tasks[0].gates.no_verdict: cases returns no_verdict only under parser strict, and this entry reads answers with parser paper',
    );
    assert.ok(validateSuite(configFolder().load(edited('pass_rate: { min: 0.95 }', 'no_verdict: { max: 0.1 }')), CATALOG));
  });

  it('a count may be gated (errors: max 0)', () => {
    assert.ok(validateSuite(configFolder().load(edited('{ max: 0.05, require: confident }', '{ max: 0.05 }\n          errors: { max: 0 }')), CATALOG));
  });
});
