import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { InputError } from '../core/index.js';
import { parseConfig } from '../config/load-config.js';
import { validateSuite } from '../config/validate-suite.js';
import { entryLabels, taskCatalog } from './task-catalog.js';

const dir = mkdtempSync(path.join(tmpdir(), 'assay-catalog-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A suite over the real registry's tasks; `gates` replaces the second entry's. */
function suite(gates: string, task = 'harm/system-prompt-leakage'): string {
  return `models: {}
suites:
  ci:
    models: [openai:gpt-4o-mini]
    judge: openai:gpt-4o
    tasks:
      - task: metatool/similar
        gates:
          csr: { min: 0.8 }
      - task: ${task}
        gates:
          ${gates}
`;
}
const check = (text: string) => {
  const file = path.join(dir, 'assay.yaml');
  writeFileSync(file, text);
  return validateSuite(parseConfig('assay.yaml', file, text), taskCatalog(), 'ci');
};
const refusal = (text: string): string => {
  try {
    check(text);
  } catch (error) {
    assert.ok(error instanceof InputError);
    return error.message;
  }
  assert.fail('expected a refusal');
};

describe('validateSuite against the real task registry (taskCatalog)', () => {
  it('takes gates on the tasks\' declared metrics in their better direction', () => {
    assert.equal(check(suite('defect_rate: { max: 0.05, require: confident }'))?.name, 'ci');
    assert.ok(check(suite('alignment: { min: 0.9, require: confident }', 'summaries/alignment')));
  });

  it('takes gates on the repeat metrics (pass^k, pass@k…) of a task that declares metrics, with their declared direction and interval', () => {
    assert.ok(check(suite('"pass^k": { min: 0.8 }', 'cases')));
    assert.ok(check(suite('"pass@k": { min: 0.9, require: confident }\n          repeat_spread: { max: 0.1 }', 'cases')));
    // A repeat metric has no interval where it declares none.
    assert.match(refusal(suite('repeat_undecided: { max: 0, require: confident }', 'cases')), /returns no interval for repeat_undecided/);
    const passHat = taskCatalog().metricsOf('cases')?.find((m) => m.name === 'pass^k');
    assert.deepEqual([passHat?.unit, passHat?.direction, passHat?.interval], ['share', 'higher', 'wilson']);
  });

  it('takes require: confident on MetaTool\'s and FunctionChat\'s rates, which carry a Wilson interval', () => {
    assert.ok(check(suite('csr: { min: 0.8, require: confident }', 'metatool/similar')));
    assert.ok(check(suite('accuracy: { min: 0.8, require: confident }', 'metatool/awareness')));
    assert.ok(check(suite('csr_2of2: { min: 0.5, require: confident }', 'metatool/multi')));
    assert.ok(check(suite('pass_rate: { min: 0.8, require: confident }', 'functionchat/singlecall')));
    assert.ok(check(suite('micro: { min: 0.8, require: confident }', 'functionchat/dialog')));
  });

  it('refuses what the declarations rule out: a count with no direction, a breakdown, confident without an interval, a misspelt task', () => {
    assert.match(refusal(suite('judged: { min: 10 }')), /^assay\.yaml:12: suites\.ci\.tasks\[1\]\.gates\.judged: harm\/system-prompt-leakage's judged is neither better high nor better low/);
    assert.match(refusal(suite('by_template: { max: 0.1 }')), /^assay\.yaml:12: suites\.ci\.tasks\[1\]\.gates\.by_template: .* is a breakdown of several figures/);
    assert.match(refusal(suite('macro: { min: 0.8, require: confident }', 'functionchat/dialog')), /^assay\.yaml:12: suites\.ci\.tasks\[1\]\.gates\.macro\.require: functionchat\/dialog returns no interval for macro/);
    assert.equal(refusal(suite('alignment: { min: 0.9 }', 'summaries/alignmnt')), 'assay.yaml:10: suites.ci.tasks[1].task: unknown task "summaries/alignmnt"; did you mean "summaries/alignment"?');
  });
});

describe('entryLabels', () => {
  it('the task, numbered only when it appears more than once', () => {
    assert.deepEqual(entryLabels(['a', 'b', 'a', 'c', 'a']), ['a #1', 'b', 'a #2', 'c', 'a #3']);
  });
});
