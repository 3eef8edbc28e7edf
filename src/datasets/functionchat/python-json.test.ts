import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pythonJsonDumps } from './python-json.js';

// Expected strings are what Python 3 prints for json.dumps(value, ensure_ascii=False).
describe('pythonJsonDumps', () => {
  it('writes separators, non-ASCII text and escapes as Python does', () => {
    assert.equal(pythonJsonDumps({ role: 'user', content: '안녕 "x"\n\t\u0001', n: null, ok: true }), '{"role": "user", "content": "안녕 \\"x\\"\\n\\t\\u0001", "n": null, "ok": true}');
    assert.equal(pythonJsonDumps([1, 2.5, [], {}]), '[1, 2.5, [], {}]');
    assert.equal(pythonJsonDumps('a'), '"a"');
    assert.equal(pythonJsonDumps(null), 'null');
  });
  it('writes non-integral numbers with Python float repr', () => {
    assert.equal(pythonJsonDumps([1e-5, 1.5e20, 0.1]), '[1e-05, 1.5e+20, 0.1]');
  });
  it('keeps key order, including a "__proto__" key', () => {
    assert.equal(pythonJsonDumps(JSON.parse('{"b": 1, "__proto__": 2, "a": 3}')), '{"b": 1, "__proto__": 2, "a": 3}');
  });
});
