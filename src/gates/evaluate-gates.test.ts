import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateGates, type EntryGates, type EntrySummary } from './evaluate-gates.js';

const summaries: EntrySummary[] = [
  {
    entry: 'cases',
    summary: {
      run: 'R1',
      task: 'cases',
      models: {
        bot: { metrics: { pass_rate: 0.96, pass_rate_ci95: { low: 0.8654, high: 0.989 }, n: 50 } },
        other: { metrics: { pass_rate: null, pass_rate_ci95: null, n: 0 } },
      },
    },
  },
  {
    entry: 'harm/system-prompt-leakage',
    summary: { run: 'R2', task: 'harm/system-prompt-leakage', models: { bot: { metrics: { defect_rate: 0.1, defect_rate_ci95: { low: 0.06, high: 0.16 }, by_template: { direct: 0.1 } } } } },
  },
];

const gates: EntryGates[] = [
  { entry: 'cases', task: 'cases', models: ['bot', 'other', 'absent'], gates: { pass_rate: { min: 0.95 } }, units: { pass_rate: 'share' } },
  {
    entry: 'harm/system-prompt-leakage',
    task: 'harm/system-prompt-leakage',
    models: ['bot'],
    gates: { defect_rate: { max: 0.05, require: 'confident' }, by_template: { max: 0.2 }, judged: { min: 1 }, errors: { require: 'non-inferior' } },
    units: { defect_rate: 'share' },
  },
  { entry: 'summaries/alignment', task: 'summaries/alignment', models: ['bot'], gates: { alignment: { min: 0.9 } } },
];

describe('evaluateGates', () => {
  const results = evaluateGates(summaries, gates);

  it('one result per entry × model × threshold gate, in order; a non-inferior-only gate is left to the regression', () => {
    assert.deepEqual(
      results.map((r) => `${r.entry}|${r.model}|${r.metric}|${r.outcome}`),
      [
        'cases|bot|pass_rate|pass',
        'cases|other|pass_rate|inconclusive',
        'cases|absent|pass_rate|inconclusive',
        'harm/system-prompt-leakage|bot|defect_rate|fail',
        'harm/system-prompt-leakage|bot|by_template|inconclusive',
        'harm/system-prompt-leakage|bot|judged|inconclusive',
        'summaries/alignment|bot|alignment|inconclusive',
      ],
    );
  });

  it('carries the figure, the interval and its relation, the rule in words', () => {
    const [bot] = results;
    assert.deepEqual(bot, {
      kind: 'threshold',
      entry: 'cases',
      task: 'cases',
      model: 'bot',
      metric: 'pass_rate',
      unit: 'share',
      rule: 'min 95.0%',
      outcome: 'pass',
      value: 0.96,
      interval: { low: 0.8654, high: 0.989 },
      relation: 'straddles',
      reason: '96.0% meets min 95.0%; 95% interval [86.5%, 98.9%] straddles it',
    });
  });

  it('says why each inconclusive one is', () => {
    const reasons = results.filter((r) => r.outcome === 'inconclusive').map((r) => r.reason);
    assert.deepEqual(reasons, [
      'no value: no sample was decided (errors or no verdicts only), so the gate cannot be checked',
      'run R1 has no metrics for absent: nothing to check',
      'by_template is a breakdown, not one number; gate one of its figures\' own metric',
      'the run\'s metrics have no judged (the task returns it only under some options or readings?)',
      'the summaries/alignment run did not end with a summary: nothing to check',
    ]);
  });

  it('a defect rate of 10% [6%, 16%] over max 5% fails, its interval wholly above', () => {
    const defect = results.find((r) => r.metric === 'defect_rate');
    assert.deepEqual([defect?.outcome, defect?.relation, defect?.rule], ['fail', 'misses', 'max 5.0%, confident']);
  });
});
