import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallRecord } from '../store/records.js';
import { Budget, formatUsd } from './budget.js';

const call = (costUsd: number | null, ok = true, actor?: string): CallRecord => ({
  runId: 'r',
  sampleId: 's',
  modelId: 'openai:m',
  role: actor ? 'judge' : 'test',
  attempt: 1,
  cacheKey: null,
  request: undefined,
  output: ok ? ({ text: 'x', toolCalls: [], usage: {} } as unknown as CallRecord['output']) : null,
  error: ok ? null : { kind: 'http', message: '500' },
  usage: {},
  costUsd,
  latencyMs: 1,
  startedAt: '2026-01-01T00:00:00Z',
  ...(actor ? { actor } : {}),
});

describe('Budget', () => {
  it('adds up the calls of every finished sample and stops at the cap, counting what earlier sessions spent', () => {
    const budget = new Budget(0.01, 0.004);
    budget.charge([call(0.002), call(0.001, true, 'openai:judge')]);
    assert.equal(budget.spentUsd.toFixed(6), '0.007000');
    assert.equal(budget.stopReason, undefined);
    // A failed attempt costs nothing (its cost is null, and nothing was billed).
    budget.charge([call(null, false), call(0.0029)]);
    assert.equal(budget.stopReason, undefined, '0.0099 < 0.01');
    budget.charge([call(0.0001)]);
    assert.equal(budget.stopReason, 'spent $0.01 of --max-cost $0.01');
    budget.charge([call(0.5)]);
    assert.equal(budget.stopReason, 'spent $0.01 of --max-cost $0.01', 'the first reason stays');
    assert.equal(budget.spentUsd.toFixed(4), '0.5100', 'samples in flight still count');
  });

  it('is spent at once when earlier sessions reached the cap', () => {
    assert.equal(new Budget(2, 2.5).stopReason, 'spent $2.50 of --max-cost $2.00');
  });

  it('stops when a paid call comes back without a cost: the cap could not be kept', () => {
    const budget = new Budget(100);
    budget.charge([call(0.01), call(null, true, 'openai:judge')]);
    assert.match(budget.stopReason ?? '', /a call of openai:judge came back without token counts/);
  });

  it('prints amounts without float noise', () => {
    assert.deepEqual([0, 0.5, 0.0123456, 0.1 + 0.2, 1, 12.345].map(formatUsd), ['0', '0.5', '0.0123', '0.3', '1.00', '12.35']);
  });
});
