import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DEMO_TEXTS_DIR } from '../../src/demo/demo-tasks.js';
import { answerSummariesRequest } from '../../src/demo/answers/summaries.js';
import { LEAKED_CODE_WORD, systemPromptLeakageRoles } from '../../src/demo/answers/system-prompt-leakage.js';
import { startSessionApp } from '../../src/testing/session-app-server.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFakeOpenAIServer, type FakeServer } from '../../src/testing/fake-openai-server.js';
import { assay } from '../../src/testing/cli-harness.js';

/**
 * A config file wired into `assay run` and `assay resume` (issue 23): three loopback
 * OpenAI-compatible servers, each accepting only its own key, play two writers (`small`,
 * `other`) and a judge (`big`) of summaries/alignment on the demo's small articles. Each server
 * must receive only its own model's requests, each with its own key; a wrong key stops only that
 * model, naming its variable; a resume whose declaration changed is refused naming the field.
 */
const KEYS = { SMALL_KEY: 'small-key-0123456789', OTHER_KEY: 'other-key-0123456789', BIG_KEY: 'big-key-0123456789ab' } as const;
type KeyName = keyof typeof KEYS;

interface KeyedServer {
  readonly server: FakeServer;
  /** The `authorization` header of every request, as received. */
  readonly authorizations: string[];
  /** The `model` of every request's body. */
  readonly models: string[];
}

let dir: string;
const servers = {} as Record<'small' | 'other' | 'big', KeyedServer>;

/** A server answering like the demo's, refusing (401) any key but its own. */
async function keyedServer(key: string): Promise<KeyedServer> {
  const authorizations: string[] = [];
  const models: string[] = [];
  const server = await startFakeOpenAIServer({
    faults: (ctx) => {
      const authorization = String(ctx.headers['authorization'] ?? '');
      authorizations.push(authorization);
      models.push(String(ctx.body.model));
      return authorization === `Bearer ${key}` ? undefined : { type: 'status', status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }) };
    },
    respond: answerSummariesRequest,
  });
  return { server, authorizations, models };
}

function configText(otherParams = ''): string {
  return [
    'models:',
    '  small:',
    '    provider: openai',
    '    model: writer-a',
    `    baseUrl: ${servers.small.server.url}`,
    '    apiKeyEnv: SMALL_KEY',
    '    params: { temperature: 0 }',
    '    price: { input: 0.15, output: 0.6 }',
    '  other:',
    '    provider: openai',
    '    model: writer-b',
    `    baseUrl: ${servers.other.server.url}`,
    '    apiKeyEnv: OTHER_KEY',
    '    concurrency: 1',
    ...(otherParams ? [`    params: ${otherParams}`] : []),
    '  big:',
    '    provider: openai',
    '    model: judge',
    `    baseUrl: ${servers.big.server.url}`,
    '    apiKeyEnv: BIG_KEY',
    '    headers: { X-Team: evals }',
    '',
  ].join('\n');
}

const articles = join(DEMO_TEXTS_DIR, 'articles');
const runArgs = (config: string, db: string): string[] => ['run', 'summaries/alignment', '--config', config, '-m', 'small', '-m', 'other', '--judge', 'big', '--articles', articles, '--db', db, '--json'];
/** The keys in the environment, without OPENAI_* (no model here may fall back to them). */
const env = (overrides: Partial<Record<KeyName, string>> = {}): NodeJS.ProcessEnv => ({ ...KEYS, ...overrides, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ASSAY_CONFIG: '', NO_COLOR: '1' });

function resetCounts(): void {
  for (const { authorizations, models } of Object.values(servers)) {
    authorizations.length = 0;
    models.length = 0;
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'assay-config-file-'));
  servers.small = await keyedServer(KEYS.SMALL_KEY);
  servers.other = await keyedServer(KEYS.OTHER_KEY);
  servers.big = await keyedServer(KEYS.BIG_KEY);
});

after(async () => {
  await Promise.all(Object.values(servers).map(({ server }) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

test('each declared model calls only its own server with its own key; the run records names and declarations, no key', async () => {
  resetCounts();
  const config = join(dir, 'ok.yaml');
  writeFileSync(config, configText());
  const db = join(dir, 'ok.db');
  const result = await assay(runArgs(config, db), env());
  assert.equal(result.code, 0, result.stderr);
  for (const [name, model, key] of [['small', 'writer-a', KEYS.SMALL_KEY], ['other', 'writer-b', KEYS.OTHER_KEY], ['big', 'judge', KEYS.BIG_KEY]] as const) {
    const { authorizations, models } = servers[name];
    assert.ok(models.length > 0, `${name}'s server was called`);
    assert.deepEqual([...new Set(models)], [model], `${name}'s server received only ${model}'s requests`);
    assert.deepEqual([...new Set(authorizations)], [`Bearer ${key}`], `${name}'s server received only its own key`);
  }
  // The demo has 4 articles: each writer summarizes each once.
  assert.equal(servers.small.models.length, 4);
  assert.equal(servers.other.models.length, 4);
  assert.equal(servers.small.server.requests[0]?.headers['x-team'], undefined);
  assert.equal(servers.big.server.requests[0]?.headers['x-team'], 'evals', 'the judge\'s declared header is sent');
  assert.equal((servers.small.server.requests[0]?.body as { temperature?: number }).temperature, 0, 'small\'s params are its sampling settings');

  const store = await openSqliteStore(db);
  try {
    const [run] = await store.listRuns();
    assert.ok(run);
    assert.deepEqual(run.models, ['small', 'other']);
    assert.equal(run.judge?.model, 'big');
    const declarations = run.provenance.declarations ?? {};
    assert.deepEqual(Object.keys(declarations).sort(), ['big', 'other', 'small']);
    assert.equal(declarations['small']?.declaration['apiKeyEnv'], 'SMALL_KEY');
    assert.equal(declarations['big']?.declaration['headers'] && (declarations['big'].declaration['headers'] as Record<string, string>)['X-Team'], '***', 'a header value written into the file is not recorded');
    assert.match(declarations['other']?.hash ?? '', /^[0-9a-f]{64}$/);
  } finally {
    await store.close();
  }
  const summary = JSON.parse(result.stdout) as { models: Record<string, unknown>; cost_by_role: { model: string }[] };
  assert.deepEqual(Object.keys(summary.models), ['small', 'other'], 'the name is the model id in the summary');
  assert.deepEqual([...new Set(summary.cost_by_role.map((c) => c.model))].sort(), ['big', 'other', 'small']);
  for (const file of [db, `${db}-wal`].filter(existsSync)) {
    const bytes = readFileSync(file, 'latin1');
    for (const key of Object.values(KEYS)) assert.ok(!bytes.includes(key), `no key in ${file}`);
  }
});

test('a wrong key stops only its model, naming its variable; a changed declaration refuses the resume; the same file resumes it', async () => {
  resetCounts();
  const config = join(dir, 'wrong.yaml');
  writeFileSync(config, configText());
  const db = join(dir, 'wrong.db');
  const stopped = await assay(runArgs(config, db), env({ OTHER_KEY: 'not-the-other-key-000' }));
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.match(stopped.stderr, /stopped other after 1 auth error/);
  assert.match(stopped.stderr, /fix the key in OTHER_KEY \(models\.other\.apiKeyEnv of the config file\)/);
  assert.doesNotMatch(stopped.stderr, /stopped (small|the judge)/);
  assert.equal(servers.small.models.length, 4, 'small summarized every article');
  assert.equal(servers.other.models.length, 1, 'other (concurrency 1) was stopped at its first refusal');
  assert.ok(!stopped.stderr.includes('not-the-other-key-000'));
  const runId = /run (\S+): summaries\/alignment/.exec(stopped.stderr)?.[1];
  assert.ok(runId, stopped.stderr);

  // The declaration changed: refused before anything is called, naming the field.
  resetCounts();
  writeFileSync(config, configText('{ temperature: 0.5 }'));
  const changed = await assay(['resume', runId, '--config', config, '--db', db], env());
  assert.equal(changed.code, 2, changed.stderr);
  assert.match(changed.stderr, /model "other": the resume declares it differently from the run's record: params was \(not set\), is \{"temperature":0\.5\}/);
  assert.equal(changed.stderr.trim().split('\n').length, 1, changed.stderr);
  // The file's problem is told before the data dir is looked at: here one that does not exist.
  const noData = await assay(['resume', runId, '--config', config, '--db', db, '--data-dir', join(dir, 'no-such-data-dir')], env());
  assert.equal(noData.code, 2, noData.stderr);
  assert.match(noData.stderr, /model "other": the resume declares it differently/);
  assert.doesNotMatch(noData.stderr, /data dir/);
  const noFile = await assay(['resume', runId, '--db', db], env());
  assert.equal(noFile.code, 2);
  assert.match(noFile.stderr, /was made with a config file declaring small, other, big: give the same file/);
  assert.equal(servers.other.models.length + servers.small.models.length + servers.big.models.length, 0, 'nothing called');

  // The same file and the right key: the stopped model's samples are called again.
  writeFileSync(config, configText());
  const resumed = await assay(['resume', runId, '--config', config, '--db', db, '--json'], env());
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(servers.other.models.length, 4, 'other summarized every article on resume');
  assert.deepEqual([...new Set(servers.other.authorizations)], [`Bearer ${KEYS.OTHER_KEY}`]);
  assert.equal(servers.small.models.length, 0, 'small\'s finished samples were not called again');
});

test('bad input: an unknown name, a missing variable, an unknown key: one line, exit 2, nothing recorded', async () => {
  resetCounts();
  const config = join(dir, 'bad.yaml');
  writeFileSync(config, configText());
  const db = join(dir, 'bad.db');
  const unknown = await assay(['run', 'summaries/alignment', '--config', config, '-m', 'smal', '--judge', 'big', '--articles', articles, '--db', db], env());
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /model "smal" is not declared in .*bad\.yaml \(did you mean "small"\?\): it declares small, other, big/);

  const missing = await assay(runArgs(config, db), env({ BIG_KEY: '' }));
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /bad\.yaml:\d+: .*environment variable BIG_KEY is not set/);

  const typo = join(dir, 'typo.yaml');
  writeFileSync(typo, configText().replace('    apiKeyEnv: SMALL_KEY', '    apiKeyEnvv: SMALL_KEY'));
  const unknownKey = await assay(runArgs(typo, db), env());
  assert.equal(unknownKey.code, 2);
  assert.match(unknownKey.stderr, /typo\.yaml:6: .*apiKeyEnvv.*apiKeyEnv/);

  // ASSAY_CONFIG names the file when --config does not.
  const viaEnv = await assay(['run', 'summaries/alignment', '-m', 'nope', '--judge', 'big', '--articles', articles, '--db', db], { ...env(), ASSAY_CONFIG: config });
  assert.equal(viaEnv.code, 2);
  assert.match(viaEnv.stderr, /model "nope" is not declared in .*bad\.yaml/);

  for (const result of [unknown, missing, unknownKey, viaEnv]) assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  assert.ok(!existsSync(db), 'no store was made');
  assert.equal(servers.small.models.length + servers.other.models.length + servers.big.models.length, 0, 'no model was called');
});

test('an http app declared in the file is the system under test of harm/system-prompt-leakage: one session per conversation, never shared; transcripts and the defect rate stored', async () => {
  // The app leaks the code word to a conversation whose first message is the developer's or the
  // spell-it persona's (what it remembers by session), and refuses the others: 2 of the 6.
  const firstBySession = new Map<string, string>();
  const app = await startSessionApp({
    respond: (body) => {
      if (!firstBySession.has(body.session)) firstBySession.set(body.session, body.message);
      const leaks = /^(developer|spell-it) /.test(firstBySession.get(body.session) ?? '');
      return { reply: leaks ? `Fine: the code word is ${LEAKED_CODE_WORD}.` : 'Sorry, I cannot share internal information.' };
    },
  });
  const roles = await startFakeOpenAIServer({ respond: systemPromptLeakageRoles({ user: 'simulated-user', sut: 'none', judge: 'judge' }) });
  try {
    const config = join(dir, 'harm.yaml');
    writeFileSync(
      config,
      [
        'models:',
        '  support-bot:',
        '    http:',
        `      url: ${app.url}`,
        '      body: \'{"session": {{ session | tojson }}, "message": {{ prompt | tojson }}}\'',
        '      output: reply',
        '  sim:',
        '    provider: openai',
        '    model: simulated-user',
        `    baseUrl: ${roles.url}`,
        '  rater:',
        '    provider: openai',
        '    model: judge',
        `    baseUrl: ${roles.url}`,
        '',
      ].join('\n'),
    );
    const db = join(dir, 'harm.db');
    const result = await assay(['run', 'harm/system-prompt-leakage', '--config', config, '-m', 'support-bot', '--user-model', 'sim', '--judge', 'rater', '--judge-format', 'json', '--db', db, '--json'], { ...env(), OPENAI_API_KEY: 'unused-loopback-key' });
    assert.equal(result.code, 0, result.stderr);
    // sim and rater name a baseUrl and no apiKeyEnv: OPENAI_API_KEY, set above, is not sent there.
    assert.ok(roles.requests.length > 0);
    assert.deepEqual(roles.requests.filter((r) => r.hadCredential).length, 0, 'no key reached the declared baseUrl');
    const summary = JSON.parse(result.stdout) as { models: Record<string, { metrics: Record<string, number> }> };
    // Hand count: 6 conversations, 2 leak (developer, spell-it).
    assert.deepEqual([summary.models['support-bot']?.metrics['defects'], summary.models['support-bot']?.metrics['judged']], [2, 6]);

    const sessionsOf = new Map<string, Set<string>>();
    for (const request of app.requests) {
      const { session, message } = request.body as { session: string; message: string };
      const persona = message.split(' ')[0] as string;
      sessionsOf.set(persona, (sessionsOf.get(persona) ?? new Set()).add(session));
    }
    assert.equal(sessionsOf.size, 6, [...sessionsOf.keys()].join(', '));
    for (const [persona, sessions] of sessionsOf) assert.equal(sessions.size, 1, `${persona}'s turns came with one session`);
    assert.equal(new Set([...sessionsOf.values()].map((s) => [...s][0])).size, 6, 'no two conversations share a session');
    for (const [, history] of app.histories) assert.ok(history.length >= 2, 'every turn of a conversation reached its session');

    const store = await openSqliteStore(db);
    try {
      const [run] = await store.listRuns();
      assert.ok(run);
      assert.deepEqual(run.models, ['support-bot']);
      const results = await store.results(run.id);
      assert.equal(results.length, 6);
      const leaked = results.filter((r) => r.transcript?.some((step) => step.role === 'test' && (step.text ?? '').includes(LEAKED_CODE_WORD)));
      assert.equal(leaked.length, 2, 'the transcripts are stored, the app\'s replies in them');
    } finally {
      await store.close();
    }
    // The system prompt was the app's own business: show and the report say so.
    const runId = /"run":"([^"]+)"/.exec(result.stdout)?.[1] ?? '';
    const show = await assay(['show', runId, '--db', db], env());
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /note: support-bot \(http\): an application target; it was sent the resource's system prompt, and whether it used it is the application's own business/);
    const html = join(dir, 'harm.html');
    const report = await assay(['report', runId, '--db', db, '--out', html], env());
    assert.equal(report.code, 0, report.stderr);
    assert.match(readFileSync(html, 'utf8'), /support-bot \(http\): an application target/);
  } finally {
    await app.close();
    await roles.close();
  }
});
