import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_RUNS, route } from './routes.js';

const at = (path: string, method = 'GET') => route(method, new URL(path, 'http://viewer.invalid'));
const RUN = '20260301-120000-ab12';

test('viewer routes: pages and JSON endpoints; run ids checked before any store read; only GET and HEAD', () => {
  assert.deepEqual(at('/'), { kind: 'list-page' });
  assert.deepEqual(at('/', 'HEAD'), { kind: 'list-page' });
  assert.deepEqual(at('/api/runs'), { kind: 'runs' });
  assert.deepEqual(at(`/report?runs=${RUN}`), { kind: 'report-page', runs: [RUN] });
  assert.deepEqual(at(`/api/report?runs=${RUN},b-2`), { kind: 'report', runs: [RUN, 'b-2'] });
  assert.deepEqual(at(`/api/progress?runs=${RUN}`), { kind: 'progress', runs: [RUN] });
  assert.deepEqual(at(`/api/runs/${RUN}/samples`), { kind: 'samples', run: RUN });
  assert.deepEqual(at(`/api/runs/${RUN}/samples/42`), { kind: 'detail', run: RUN, row: 42 });

  const status = (path: string, method = 'GET'): number | undefined => {
    const r = at(path, method);
    return r.kind === 'error' ? r.status : undefined;
  };
  assert.equal(status('/', 'POST'), 405);
  assert.equal(status('/api/runs', 'DELETE'), 405);
  assert.equal(status('/nothing'), 404);
  assert.equal(status('/api/runs/x/other'), 404);
  assert.equal(status('/report'), 400);
  assert.equal(status('/report?runs='), 400);
  assert.equal(status(`/report?runs=${RUN},${RUN}`), 400);
  assert.equal(status(`/report?runs=${Array.from({ length: MAX_RUNS + 1 }, (_, i) => `r${i}`).join(',')}`), 400);
  for (const bad of ['../etc', '<script>', "a'b", 'a b', '%2e%2e', '-lead', 'x'.repeat(129)]) {
    assert.equal(status(`/report?runs=${encodeURIComponent(bad)}`), 400, bad);
  }
  assert.equal(status('/api/runs/%3Cscript%3E/samples'), 400);
  assert.equal(status('/api/runs/..%2F..%2Fetc/samples'), 400);
  assert.equal(status(`/api/runs/${RUN}/samples/-1`), 400);
  assert.equal(status(`/api/runs/${RUN}/samples/1e3`), 400);
});
