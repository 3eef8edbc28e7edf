import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sample, Score } from '../../core/index.js';
import type { ScoredSample } from '../task.js';
import type { FunctionChatMeta } from './metadata.js';
import { wilsonInterval } from '../../metrics/intervals.js';
import { callDecisionMetrics, dialogMetrics, singlecallMetrics } from './metrics.js';

/** Wilson's 95% interval of hits of n, as the metrics carry it (`metrics/intervals.test.ts` checks the function by hand). */
const wilson = (hits: number, n: number): { low: number; high: number } | null => {
  const ci = wilsonInterval(hits, n);
  return ci && { low: ci.low, high: ci.high };
};

let next = 0;
function row(meta: Omit<FunctionChatMeta, 'bench_version' | 'serial_num'>, value: Score['value'] | 'error', errors: string[] = []): ScoredSample {
  const sample: Sample = { id: `s${next++}`, input: [], target: null, metadata: { bench_version: 'v2.0.0', serial_num: next, ...meta } };
  if (value === 'error') return { sample, score: undefined };
  return { sample, score: { value, metadata: { errors } } };
}
const ZERO = { no_call: 0, multiple_calls: 0, hallucinated_function: 0, wrong_function: 0, malformed_arguments: 0, missing_required_key: 0, extra_key: 0, wrong_type: 0, wrong_value: 0 };

describe('singlecallMetrics', () => {
  it('counts passes per tool list; a no-verdict is not a pass and is counted apart; errors are left out', () => {
    const sc = (tools_type: string, value: Score['value'] | 'error', errors?: string[]): ScoredSample => row({ task: 'singlecall', type_of_output: 'call', tools_type }, value, errors);
    const m = singlecallMetrics([
      sc('exact', true),
      sc('exact', false, ['wrong_value']),
      sc('exact', null),
      sc('4_random', true),
      sc('4_random', true),
      sc('8_close', false, ['no_call']),
      sc('8_close', 'error'),
    ]);
    assert.deepEqual(m, {
      pass: 3,
      pass_rate: 0.5,
      pass_rate_ci95: wilson(3, 6),
      no_verdict: 1,
      n: 6,
      by_tools_type: {
        exact: { pass: 1, pass_rate: 1 / 3, no_verdict: 1, n: 3 },
        '4_random': { pass: 2, pass_rate: 1, no_verdict: 0, n: 2 },
        '8_close': { pass: 0, pass_rate: 0, no_verdict: 0, n: 1 },
      },
      errors: { ...ZERO, wrong_value: 1, no_call: 1, items: 2 },
    });
  });

  it('is null-rated, not NaN, with nothing scored', () => {
    assert.deepEqual(singlecallMetrics([]), { pass: 0, pass_rate: null, pass_rate_ci95: null, no_verdict: 0, n: 0, by_tools_type: {}, errors: { ...ZERO, items: 0 } });
  });
});

describe('dialogMetrics', () => {
  it('rates per output type, micro over turns, macro over the types present', () => {
    const dl = (type_of_output: FunctionChatMeta['type_of_output'], value: Score['value'], errors?: string[]): ScoredSample => row({ task: 'dialog', type_of_output }, value, errors);
    const m = dialogMetrics([
      dl('call', true),
      dl('call', false, ['extra_key', 'wrong_value']),
      dl('completion', true),
      dl('completion', null),
      dl('completion', false),
      dl('slot', true),
    ]);
    assert.deepEqual(m.pass_rate, { call: 0.5, completion: 1 / 3, slot: 1 });
    assert.equal(m.micro, 0.5); // 3 of 6
    assert.deepEqual(m.micro_ci95, wilson(3, 6));
    // 3 of 6 by hand (z = 1.959964, z² = 3.841459): centre (0.5 + 0.320122) / 1.640243 = 0.5,
    // half-width 1.959964 · √(0.041667 + 0.026677) / 1.640243 = 0.312384: [0.187616, 0.812384].
    assert.ok(Math.abs((m.micro_ci95 as { low: number }).low - 0.187616) < 1e-5 && Math.abs((m.micro_ci95 as { high: number }).high - 0.812384) < 1e-5, JSON.stringify(m.micro_ci95));
    assert.ok(Math.abs((m.macro as number) - (0.5 + 1 / 3 + 1) / 3) < 1e-12); // 0.6111…
    assert.equal(m.pass, 3);
    assert.equal(m.no_verdict, 1);
    assert.equal(m.n, 6);
    assert.deepEqual(m.by_type_of_output, {
      call: { pass: 1, pass_rate: 0.5, no_verdict: 0, n: 2 },
      completion: { pass: 1, pass_rate: 1 / 3, no_verdict: 1, n: 3 },
      slot: { pass: 1, pass_rate: 1, no_verdict: 0, n: 1 },
    });
    assert.deepEqual(m.errors, { ...ZERO, extra_key: 1, wrong_value: 1, items: 1 });
  });

  it('macro is null with nothing scored', () => {
    assert.equal(dialogMetrics([]).macro, null);
  });
});

describe('callDecisionMetrics', () => {
  it('rates per category and overall', () => {
    const cd = (category: string, type_of_output: FunctionChatMeta['type_of_output'], value: Score['value'], errors?: string[]): ScoredSample => row({ task: 'calldecision', type_of_output, category }, value, errors);
    const m = callDecisionMetrics([
      cd('CALL', 'call', true),
      cd('CALL', 'call', false, ['hallucinated_function']),
      cd('REJECT', 'relevance', false),
      cd('SLOT-all', 'slot', null),
      cd('SLOT-some', 'slot', true),
      cd('SLOT-some', 'slot', false),
    ]);
    assert.deepEqual(m, {
      pass: 2,
      pass_rate: 2 / 6,
      pass_rate_ci95: wilson(2, 6),
      no_verdict: 1,
      n: 6,
      by_category: {
        CALL: { pass: 1, pass_rate: 0.5, no_verdict: 0, n: 2 },
        REJECT: { pass: 0, pass_rate: 0, no_verdict: 0, n: 1 },
        'SLOT-all': { pass: 0, pass_rate: 0, no_verdict: 1, n: 1 },
        'SLOT-some': { pass: 1, pass_rate: 0.5, no_verdict: 0, n: 2 },
      },
      errors: { ...ZERO, hallucinated_function: 1, items: 1 },
    });
  });
});
