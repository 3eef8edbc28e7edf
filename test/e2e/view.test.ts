import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { waitUntil } from '../../src/testing/gate.js';
import { collect, runAssay, spawnAssay, type CliResult } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

/**
 * `assay view` as a process: it prints its URL, serves the stored runs over real HTTP, closes
 * cleanly on Ctrl-C, and refuses a port in use or an address it cannot bind in one line (exit 2).
 */
const env = { ASSAY_DATA_DIR: testDataDir() };
let dir: string;
let db: string;
let runId: string;
/** Without the MetaTool data there is no run to view: the tests that need one are skipped, saying how to get it. */
const skip = needsData('metatool');

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-view-e2e-'));
  db = join(dir, 'runs.db');
  if (skip) {
    await (await openSqliteStore(db)).close(); // an empty store, for the tests that need no run
    return;
  }
  const made = await runAssay(['run', 'metatool/awareness', '--model', 'baseline:lexical', '--limit', '8', '--json', '--db', db], env);
  assert.equal(made.code, 0, made.stderr);
  runId = (JSON.parse(made.stdout) as { run: string }).run;
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts `assay view` and waits for the URL it prints. */
async function startView(args: readonly string[]): Promise<{ child: ChildProcess; url: string; stdout: () => string; exited: Promise<CliResult> }> {
  const child = spawnAssay(['view', '--db', db, ...args], env);
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = collect(child);
  let ended = false;
  void exited.then(() => (ended = true));
  await waitUntil(() => ended || stdout.includes('Ctrl-C stops the viewer\n'), 'the viewer to print its URL');
  const url = /assay view: (\S+)\n/.exec(stdout)?.[1];
  if (!url) assert.fail(`no URL printed: ${(await exited).stderr}`);
  return { child, url, stdout: () => stdout, exited };
}


/** Sends `text` as it is over a TCP connection and resolves with the status line of the answer ('' when the connection closed without one). */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text, 'latin1'));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (answer.includes('\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

/** Requests the HTTP parser lets through but a URL reader or a Host check may choke on, with the status each must get (403 before the route is read: the token is missing off loopback). */
const MALFORMED: readonly (readonly [string, (port: number) => string, RegExp])[] = [
  ['an absolute target that is no URL', (port) => `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, /^HTTP\/1\.1 400 /],
  ['an absolute target that is no URL, no Host', () => 'GET http://[ HTTP/1.1\r\nConnection: close\r\n\r\n', /^HTTP\/1\.1 400 /],
  ['a scheme-relative target with a broken host', (port) => `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, /^HTTP\/1\.1 400 /],
  ['bad percent-encoding in a run id', (port) => `GET /api/runs/%E0%A4%A/samples HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, /^HTTP\/1\.1 (400|403) /],
  ['bad percent-encoding in the query', (port) => `GET /report?runs=%zz%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, /^HTTP\/1\.1 (400|403) /],
  ['an absurd Host header', () => `GET / HTTP/1.1\r\nHost: [${'z'.repeat(8000)}\r\nConnection: close\r\n\r\n`, /^HTTP\/1\.1 403 /],
  ['a Host header with a port out of range', () => 'GET / HTTP/1.1\r\nHost: 127.0.0.1:999999999\r\nConnection: close\r\n\r\n', /^HTTP\/1\.1 403 /],
  ['no HTTP at all', () => '\x00\x01\xff garbage\r\n\r\n', /^(HTTP\/1\.1 400 .*)?$/],
];

describe('assay view (the CLI)', () => {
  test('prints its URL on 127.0.0.1, serves the runs, and stops cleanly on Ctrl-C', { skip }, async () => {
    const view = await startView([]);
    try {
      assert.match(view.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const runs = (await (await fetch(new URL('/api/runs', view.url))).json()) as { run: string; progress: { done: number }[] }[];
      assert.deepEqual(runs.map((r) => [r.run, r.progress[0]?.done]), [[runId, 8]]);
      const page = await fetch(new URL(`/report?runs=${runId}`, view.url));
      assert.equal(page.status, 200);
    } finally {
      view.child.kill('SIGINT');
    }
    const exit = await view.exited;
    assert.equal(exit.code, 0, exit.stderr);
    assert.match(exit.stderr, /assay view: stopped/);
    await assert.rejects(fetch(view.url), 'nothing listens any more');
  });

  for (const host of ['127.0.0.1', '0.0.0.0']) {
    test(`malformed requests get a 400 (or 403) and the viewer goes on serving (--host ${host})`, async () => {
      const view = await startView(['--host', host]);
      const port = Number(new URL(view.url).port);
      const token = new URL(view.url).searchParams.get('token');
      let exitedEarly = false;
      void view.exited.then(() => (exitedEarly = true));
      try {
        for (const [what, text, expected] of MALFORMED) {
          assert.match(await rawRequest(port, text(port)), expected, what);
          const ok = await fetch(new URL(`/api/runs${token === null ? '' : `?token=${token}`}`, `http://127.0.0.1:${port}`));
          assert.equal(ok.status, 200, `a normal request after ${what}`);
          assert.equal(exitedEarly, false, `the viewer still runs after ${what}`);
        }
      } finally {
        view.child.kill('SIGINT');
      }
      const exit = await view.exited;
      assert.equal(exit.code, 0, exit.stderr);
    });
  }

  test('off loopback the printed URL carries a token; without it every request is refused', { skip }, async () => {
    const view = await startView(['--host', '0.0.0.0']);
    try {
      const token = /\?token=([A-Za-z0-9_-]+)$/.exec(view.url)?.[1];
      assert.ok(token, view.url);
      assert.match(view.stdout(), /the token is required on every request/);
      const base = view.url.replace(/\?token=.*$/, '');
      assert.equal((await fetch(new URL('/api/runs', base))).status, 403);
      assert.equal((await fetch(new URL('/', base))).status, 403);
      const ok = await fetch(new URL(`/api/runs?token=${token}`, base));
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('content-type'), 'application/json; charset=utf-8');
    } finally {
      view.child.kill('SIGTERM');
    }
    assert.equal((await view.exited).code, 0);
  });

  test('a port in use, a bad port or a host it cannot bind: one line, exit 2', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const busy = await runAssay(['view', '--db', db, '--port', String(port)], env);
      assert.equal(busy.code, 2);
      assert.equal(busy.stderr, `assay: port ${port} is in use on 127.0.0.1: give another with --port, or leave --port out for a free one\n`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    const badPort = await runAssay(['view', '--db', db, '--port', '70000'], env);
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /--port must be at most 65535, got "70000"/);
    assert.equal(badPort.stderr.trim().split('\n').length, 1);
    const badHost = await runAssay(['view', '--db', db, '--host', '203.0.113.7'], env);
    assert.equal(badHost.code, 2);
    assert.equal(badHost.stderr, 'assay: cannot listen on --host 203.0.113.7: not an address of this machine (EADDRNOTAVAIL)\n');
  });

  test('--help explains the pages, liveness and the token', async () => {
    const help = await runAssay(['view', '--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--port <n>/);
    assert.match(help.stdout, /--host <address>/);
    assert.match(help.stdout, /access token/);
    assert.match(help.stdout, /update every 2 s while the run is in progress/);
  });
});
