import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunEvent } from './records.js';
import { appendRunEvents, decodeRunEvents, decodeRunParts, encodeRunParts, RUN_PARTS_LAYOUT } from './run-record-codec.js';
import { engineView, queueOf, stopsInEvents } from './run-events.js';

// The `engine` column of a queued suite member run as assay wrote it before the record was split,
// verbatim: the engine settings with everything else beside them as keys.
const OLD_ENGINE_COLUMN =
  '{"concurrency":4,"timeoutMs":60000,"retry":{"maxRetries":2,"baseDelayMs":500,"maxDelayMs":8000},"cache":true,"maxCostUsd":2.5,' +
  '"suiteRun":{"id":"suite-20261101-120000-ab12","suite":"release","entry":1,"entries":3},"dataDir":"/srv/data",' +
  '"modifiedData":[{"file":"metatool/plugin_des.json","pinned":"aa","actual":"bb"}],' +
  '"declarations":{"small":{"declaration":{"kind":"provider","provider":"openai","model":"m","apiKeyEnv":"SMALL_KEY"},"hash":"h1"}},' +
  '"queue":{"name":"units","session":"r1abc"},' +
  '"failFastStops":[{"actor":"small","role":"test","kind":"auth","message":"HTTP 401","count":1}]}';

const STOP = { actor: 'small', role: 'test', kind: 'auth', message: 'HTTP 401', count: 1 } as const;

test('a record of the older layout (everything in engine) decodes to spec, provenance and events', () => {
  const parts = decodeRunParts(OLD_ENGINE_COLUMN);
  assert.deepEqual(parts.engine, { concurrency: 4, timeoutMs: 60000, retry: { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000 }, cache: true, maxCostUsd: 2.5 });
  assert.deepEqual(parts.suiteRun, { id: 'suite-20261101-120000-ab12', suite: 'release', entry: 1, entries: 3 });
  assert.deepEqual(parts.provenance, {
    dataDir: '/srv/data',
    modifiedData: [{ file: 'metatool/plugin_des.json', pinned: 'aa', actual: 'bb' }],
    declarations: { small: { declaration: { kind: 'provider', provider: 'openai', model: 'm', apiKeyEnv: 'SMALL_KEY' }, hash: 'h1' } },
  });
  assert.deepEqual(parts.events, [
    { type: 'submitted', queue: 'units', session: 'r1abc' },
    { type: 'failFast', stops: [STOP] },
  ]);
  assert.deepEqual(queueOf(parts), { name: 'units', session: 'r1abc' });
  assert.deepEqual(stopsInEvents(parts.events), [STOP]);
});

test('the older record is shown exactly as it was stored (engineView: show --json and the report keep their engine)', () => {
  assert.equal(JSON.stringify(engineView(decodeRunParts(OLD_ENGINE_COLUMN))), OLD_ENGINE_COLUMN);
});

test('the older layout read defensively: what is not well-formed is left out, keys of no part dropped', () => {
  const parts = decodeRunParts(
    JSON.stringify({
      concurrency: 2,
      retries: { max: 3 },
      dataDir: 7,
      suiteRun: { id: 's1', suite: 'release', entry: '1', entries: 3 },
      modifiedData: [{ file: 'a', pinned: 'b', actual: 'c' }, { file: 1 }, null],
      declarations: { ok: { declaration: {}, hash: 'h' }, bad: { hash: 3 } },
      queue: { session: 'x' },
      failFastStops: [STOP, { actor: 'x' }],
    }),
  );
  assert.deepEqual(parts, {
    engine: { concurrency: 2 },
    provenance: { modifiedData: [{ file: 'a', pinned: 'b', actual: 'c' }], declarations: { ok: { declaration: {}, hash: 'h' } } },
    events: [{ type: 'failFast', stops: [STOP] }],
  });
  assert.deepEqual(decodeRunParts('{}'), { engine: {}, provenance: {}, events: [] });
  assert.deepEqual(decodeRunParts('null'), { engine: {}, provenance: {}, events: [] });
});

test('the layout this version writes round-trips, and an event appended to an older record rewrites it in that layout', () => {
  const parts = decodeRunParts(OLD_ENGINE_COLUMN);
  assert.deepEqual(decodeRunParts(encodeRunParts(parts)), parts);
  assert.equal(JSON.parse(encodeRunParts(parts)).layout, RUN_PARTS_LAYOUT);
  const ended: RunEvent = { type: 'ended', at: '2026-11-01T12:00:00.000Z', status: 'finished', failFastStops: [] };
  const appended = appendRunEvents(OLD_ENGINE_COLUMN, [ended]);
  assert.equal(JSON.parse(appended).layout, RUN_PARTS_LAYOUT);
  const read = decodeRunParts(appended);
  assert.deepEqual(read, { ...parts, events: [...parts.events, ended] });
  assert.deepEqual(stopsInEvents(read.events), [], 'a session that ended without stops clears them');
  // A malformed event in a stored list is left out, the rest kept in order.
  const damaged = JSON.stringify({ ...JSON.parse(appended), events: [ended, { type: 'ended', status: 'nope' }, { type: 'resumed' }] });
  assert.deepEqual(decodeRunParts(damaged).events, [ended, { type: 'resumed' }]);
});

test('decodeRunEvents reads the events decodeRunParts reads, of either layout, damaged ones left out', () => {
  const ended: RunEvent = { type: 'ended', at: '2026-11-01T12:00:00.000Z', status: 'finished', failFastStops: [] };
  const appended = appendRunEvents(OLD_ENGINE_COLUMN, [ended]);
  const damaged = JSON.stringify({ ...JSON.parse(appended), events: [ended, { type: 'ended', status: 'nope' }, { type: 'resumed' }] });
  for (const text of [OLD_ENGINE_COLUMN, appended, damaged, '{"layout":2}', JSON.stringify({ queue: { session: 'x' } }), '{}', 'null', '[]']) {
    assert.deepEqual(decodeRunEvents(text), decodeRunParts(text).events, text);
  }
  assert.equal(decodeRunEvents(OLD_ENGINE_COLUMN).length, 2);
  assert.deepEqual(decodeRunEvents(damaged), [ended, { type: 'resumed' }]);
});

test('stopsInEvents: an end replaces the stops, a worker adds its own once, a submission clears them, a resume keeps them', () => {
  const judge = { actor: 'j', role: 'judge', kind: 'not-found', message: 'no such model', count: 1 } as const;
  assert.deepEqual(stopsInEvents([{ type: 'failFast', stops: [STOP] }, { type: 'failFast', stops: [{ ...STOP, count: 2 }, judge] }]), [STOP, judge]);
  assert.deepEqual(stopsInEvents([{ type: 'failFast', stops: [STOP] }, { type: 'resumed' }]), [STOP]);
  assert.deepEqual(stopsInEvents([{ type: 'failFast', stops: [STOP] }, { type: 'submitted', queue: 'q' }]), []);
  assert.deepEqual(stopsInEvents([{ type: 'failFast', stops: [STOP] }, { type: 'ended', status: 'interrupted', failFastStops: [judge] }]), [judge]);
});
