import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { registerTask } from '../../src/benchmarks/registry.js';
import { createTargetProvider } from '../../src/models/registry.js';
import { startRun } from '../../src/runner/run.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { conversationTask } from '../../src/testing/conversation-task.js';
import { startSessionApp } from '../../src/testing/session-app-server.js';
import { testDataDir } from '../../src/testing/test-data.js';

registerTask(conversationTask('testing/conversation-targets', ['alice', 'bob', 'dave'], 3));

/**
 * The simulated user, a `module` target: alice ends after two messages, bob and dave talk until
 * the last turn. Ids of the `scripted:` provider are those a library user passes in code; the
 * config file's bare names reach the runner through its own wiring.
 */
const USER_MODULE = `
export default async function user(request) {
  const persona = /You are (\\w+)\\./.exec(request.system ?? '')?.[1] ?? '?';
  const said = request.messages.filter((m) => m.role === 'assistant').length;
  return { text: JSON.stringify({ message: persona + ' asks ' + (said + 1), end: persona === 'alice' && said === 2 }) };
}
`;

test('a conversation task through the runner with an http app as the model under test: one session per conversation, never shared, the app holds each conversation', async () => {
  const app = await startSessionApp();
  const dir = mkdtempSync(join(tmpdir(), 'assay-targets-session-'));
  try {
    writeFileSync(join(dir, 'user.mjs'), USER_MODULE);
    const bot = await createTargetProvider({ kind: 'http', name: 'scripted:support-bot', url: app.url, body: '{"session": {{ session | tojson }}, "message": {{ prompt | tojson }}}', output: 'reply' });
    const simulatedUser = await createTargetProvider({ kind: 'module', name: 'scripted:user', path: 'user.mjs', baseDir: dir });
    const store = await openSqliteStore(join(dir, 'a.db'));
    const summary = await startRun(
      {
        task: 'testing/conversation-targets',
        models: ['scripted:support-bot'],
        userModel: 'scripted:user',
        seed: 1,
        options: {},
        dataDir: testDataDir(),
        engine: { concurrency: 3, timeoutMs: 5000, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, cache: true },
      },
      { store, providers: { 'scripted:support-bot': bot, 'scripted:user': simulatedUser } },
    );
    assert.equal(summary.status, 'finished');
    assert.deepEqual(summary.models['scripted:support-bot']?.metrics, { conversations: 3, mean_turns: (2 + 3 + 3) / 3 });

    // Which session each persona's messages came with.
    const sessionsOf = new Map<string, Set<string>>();
    for (const request of app.requests) {
      const { session, message } = request.body as { session: string; message: string };
      const persona = message.split(' ')[0] as string;
      sessionsOf.set(persona, (sessionsOf.get(persona) ?? new Set()).add(session));
    }
    assert.deepEqual([...sessionsOf.keys()].sort(), ['alice', 'bob', 'dave']);
    for (const [persona, sessions] of sessionsOf) assert.equal(sessions.size, 1, `${persona}'s turns came with ${sessions.size} sessions`);
    const sessions = [...sessionsOf.values()].map((s) => [...s][0] as string);
    assert.equal(new Set(sessions).size, 3, 'no two conversations share a session');

    // The app kept each conversation whole, and what it answered is what the run stored.
    const results = new Map((await store.results(summary.run)).map((r) => [r.sampleId, r]));
    for (const [persona, turns] of [['alice', 2], ['bob', 3], ['dave', 3]] as const) {
      const session = [...(sessionsOf.get(persona) as Set<string>)][0] as string;
      const asked = Array.from({ length: turns }, (_, i) => `${persona} asks ${i + 1}`);
      assert.deepEqual(app.histories.get(session), asked);
      const answers = results.get(persona)?.transcript?.filter((step) => step.role === 'test').map((step) => step.text);
      assert.deepEqual(answers, asked.map((message, i) => `turn ${i + 1}: ${message}`));
    }
    await store.close();
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
