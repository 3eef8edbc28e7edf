import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CANARY_KEY } from '../../src/testing/canary.js';
import { CANARY_QUERY_TOKEN, canaryRunArgs, startCanaryServer } from '../../src/testing/canary-server.js';
import { assertNoCanary, fileText, readRunEverywhere } from '../../src/testing/canary-sweep.js';
import type { FakeServer } from '../../src/testing/fake-openai-server.js';
import { runAssay } from '../../src/testing/spawn-cli.js';
import { needsData, testDataDir } from '../../src/testing/test-data.js';

let server: FakeServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-canary-'));
  // The key in the base URL's path as well (as some gateways take it): hidden there too.
  server = await startCanaryServer({ keyInPath: true });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a key echoed in every JSON escape form, and the base URL\'s credentials (the key in its path too), reach no store, WAL, export, report or terminal', { skip: needsData('functionchat') }, async () => {
  const db = join(dir, 'canary.db');
  const env = { OPENAI_API_KEY: CANARY_KEY, ASSAY_DATA_DIR: testDataDir() };
  const run = await runAssay(canaryRunArgs(server, db), env);
  // Exit 3: some samples ended in error (the 400s), as planned.
  assert.equal(run.code, 3, run.stderr);
  const runId = (JSON.parse(run.stdout) as { run: string }).run;
  // The server was called with the credentials (the key, the query's token) and echoed them in every form.
  assert.ok(server.requests.length >= 12);
  assert.ok(server.requests.every((r) => r.path.includes(`api_key=${encodeURIComponent(CANARY_QUERY_TOKEN)}`)));
  const texts: Record<string, string> = { 'run stdout': run.stdout, 'run stderr': run.stderr, ...(await readRunEverywhere(runId, db, dir, env)) };
  for (const file of readdirSync(dir)) texts[`file ${file}`] = fileText(join(dir, file));
  assert.ok(existsSync(db));
  for (const [where, text] of Object.entries(texts)) assertNoCanary(where, text);
  // What was echoed is there, redacted: outputs, tool-call arguments, errors and the judge's replies.
  const exported = texts['export jsonl'] ?? '';
  assert.match(exported, /\[REDACTED\]/);
  assert.match(texts['show'] ?? '', /errors [1-9]/);
  assert.match(texts['export jsonl'] ?? '', /bad request for key \[REDACTED\] and \[REDACTED\]/);
  // The key in the base URL's path is hidden too, as a whole segment.
  assert.match(texts['report file'] ?? '', /user:\*\*\*@127\.0\.0\.1:\d+\/\*\*\*\/v1\?api_key=\*\*\*/);
});
