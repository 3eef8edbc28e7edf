import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isDemoModel, isDemoRun } from './demo-run.js';

describe('isDemoRun', () => {
  it('is a demo when any model of the run, the judge or the simulated user is a demo: id', () => {
    assert.equal(isDemoRun({ models: ['demo:writer'] }), true);
    assert.equal(isDemoRun({ models: ['given:answers'], judge: { model: 'demo:judge' } }), true);
    assert.equal(isDemoRun({ models: ['openai:gpt-4o-mini'], judge: null, userModel: 'demo:simulated-user' }), true);
  });

  it('is not one when no id is demo:, whatever the names say', () => {
    assert.equal(isDemoRun({ models: ['openai:demo', 'ollama:demo:latest'], judge: { model: 'openai:judge' }, userModel: null }), false);
    assert.equal(isDemoModel('not an id'), false);
  });
});
