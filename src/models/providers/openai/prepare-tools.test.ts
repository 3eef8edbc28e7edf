import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prepareTools } from './prepare-tools.js';

describe('prepareTools', () => {
  it('wraps each spec as a function tool', () => {
    const parameters = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    assert.deepEqual(prepareTools([{ name: 'search', description: 'Search the web', parameters }]), [
      { type: 'function', function: { name: 'search', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } },
    ]);
  });

  it('returns undefined for no tools (OpenAI rejects an empty array)', () => {
    assert.equal(prepareTools(undefined), undefined);
    assert.equal(prepareTools([]), undefined);
  });
});
