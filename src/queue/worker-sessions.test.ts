import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { WorkerSessions } from './worker-sessions.js';

/** Sessions that say when they are built and closed; `closed` resolves at the next close. */
function tracked(idleMs: number, fail: (runId: string, builds: number) => boolean = () => false) {
  const opened: string[] = [];
  const closedKeys: string[] = [];
  let onClose: (() => void) | undefined;
  const sessions = new WorkerSessions<{ runId: string; build: number }>(
    async (runId) => {
      opened.push(runId);
      if (fail(runId, opened.length)) throw new Error(`cannot build ${runId}`);
      return { runId, build: opened.length };
    },
    async (_session, key) => {
      closedKeys.push(key);
      onClose?.();
    },
    idleMs,
  );
  const nextClose = (): Promise<void> => new Promise((resolve) => (onClose = resolve));
  return { sessions, opened, closedKeys, nextClose };
}

describe('WorkerSessions', { timeout: 30_000 }, () => {
  // The idle timers are unref'd (a worker's Redis connections keep its process alive): so does this, meanwhile.
  let alive: NodeJS.Timeout | undefined;
  beforeEach(() => {
    alive = setInterval(() => undefined, 1000);
  });
  afterEach(() => clearInterval(alive));

  it('builds a run’s session once for the units that share it, closes it once none uses it for the idle time, builds it again after', async () => {
    const { sessions, opened, closedKeys, nextClose } = tracked(20);
    const a = sessions.acquire('r1\n', 'r1');
    const b = sessions.acquire('r1\n', 'r1');
    assert.equal(await a.session, await b.session);
    assert.deepEqual(opened, ['r1']);
    a.release();
    a.release(); // a second release of one acquire counts once
    assert.equal(sessions.size, 1, 'one unit still uses it');
    const closing = nextClose();
    b.release();
    assert.deepEqual(closedKeys, [], 'not closed the moment it is idle');
    await closing;
    assert.deepEqual(closedKeys, ['r1\n']);
    assert.equal(sessions.size, 0);
    const c = sessions.acquire('r1\n', 'r1');
    assert.equal((await c.session).build, 2, 'a later unit builds it again');
    c.release();
    await sessions.closeAll();
  });

  it('a unit that comes while the session waits out its idle time keeps it', async () => {
    const { sessions, opened, closedKeys, nextClose } = tracked(20);
    const a = sessions.acquire('r1\n', 'r1');
    await a.session;
    a.release();
    const b = sessions.acquire('r1\n', 'r1');
    assert.equal((await b.session).build, 1);
    // Another run's session closes after its own idle time; r1's, still in use, does not.
    const other = sessions.acquire('r2\n', 'r2');
    await other.session;
    const closing = nextClose();
    other.release();
    await closing;
    assert.deepEqual(closedKeys, ['r2\n']);
    assert.deepEqual(opened, ['r1', 'r2']);
    b.release();
    await sessions.closeAll();
    assert.deepEqual(closedKeys, ['r2\n', 'r1\n']);
  });

  it('a failed build is not kept: the next unit builds again, and the failed unit’s release leaves the new session alone', async () => {
    const { sessions, opened } = tracked(20, (_runId, builds) => builds === 1);
    const failed = sessions.acquire('r1\n', 'r1');
    await assert.rejects(failed.session, /cannot build r1/);
    const next = sessions.acquire('r1\n', 'r1');
    assert.equal((await next.session).build, 2);
    failed.release();
    assert.equal(sessions.size, 1);
    assert.deepEqual(opened, ['r1', 'r1']);
    next.release();
    await sessions.closeAll();
  });

  it('closeAll closes every session, in use or idle, and waits for the idle ones already closing', async () => {
    let finishClose: (() => void) | undefined;
    const closed: string[] = [];
    const sessions = new WorkerSessions<string>(
      async (runId) => runId,
      async (session) => {
        if (session === 'slow') await new Promise<void>((resolve) => (finishClose = resolve));
        closed.push(session);
      },
      1,
    );
    const slow = sessions.acquire('slow\n', 'slow');
    await slow.session;
    slow.release();
    while (!finishClose) await new Promise((resolve) => setTimeout(resolve, 5));
    const busy = sessions.acquire('busy\n', 'busy');
    await busy.session;
    const all = sessions.closeAll();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(closed, ['busy'], 'the one in use is closed; the idle one is still closing');
    finishClose();
    await all;
    assert.deepEqual(closed, ['busy', 'slow']);
  });
});
