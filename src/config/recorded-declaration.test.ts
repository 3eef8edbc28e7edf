import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelDeclaration } from './model-declaration.js';
import { declarationChangeMessage, declarationHash, firstDeclarationDifference, recordedDeclaration, type RecordedDeclaration } from './recorded-declaration.js';
import { configFolder, EXAMPLE_CONFIG } from './test-support/config-folder.js';

const SECRET = 'sk-canary-4f1d9c';

/** The recorded form of model `name` of a config file's text. */
function recorded(text: string, name = 'a'): RecordedDeclaration {
  const declaration = configFolder().load(text).models.get(name);
  assert.ok(declaration);
  return recordedDeclaration(declaration);
}

describe('the recorded declaration', () => {
  it('keeps what was measured and no secret: no URL password or key parameter, literal header values hidden, ${VAR} and key names kept', () => {
    const text = `models:
  a:
    provider: openai
    model: gemma
    baseUrl: "http://user:${SECRET}@127.0.0.1:8000/v1?api_key=${SECRET}&team=evals"
    apiKeyEnv: SMALL_KEY
    headers: { X-Org: "\${ORG}", Authorization: "Bearer ${SECRET}", X-Team: evals }
    params: { temperature: 0 }
`;
    const record = recorded(text);
    assert.deepEqual(record, {
      kind: 'provider',
      provider: 'openai',
      model: 'gemma',
      baseUrl: 'http://***@127.0.0.1:8000/v1?api_key=***&team=evals',
      apiKeyEnv: 'SMALL_KEY',
      headers: { 'X-Org': '${ORG}', Authorization: '***', 'X-Team': '***' },
      params: { temperature: 0 },
    });
    assert.ok(!JSON.stringify(record).includes(SECRET));
  });

  it('drops a user part without a password too (often the token itself), and keeps a URL without one as it is', () => {
    const url = (baseUrl: string) => recorded(`models:\n  a:\n    provider: openai\n    model: x\n    baseUrl: "${baseUrl}"\n`)['baseUrl'];
    assert.equal(url(`https://${SECRET}@h.example/v1`), 'https://***@h.example/v1');
    assert.equal(url('https://${USER}:${PASS}@h.example:8443/v1?x=a@b'), 'https://***@h.example:8443/v1?x=a@b');
    assert.equal(url('http://127.0.0.1:8000/v1'), 'http://127.0.0.1:8000/v1');
    assert.equal(url('http://${HOST}/v1'), 'http://${HOST}/v1');
  });

  it('records every kind of the issue\'s example as plain JSON, relative paths as written', () => {
    const config = configFolder().load(EXAMPLE_CONFIG);
    const all = Object.fromEntries([...config.models].map(([name, declaration]) => [name, recordedDeclaration(declaration)]));
    assert.deepEqual(JSON.parse(JSON.stringify(all)), all, 'plain JSON');
    assert.deepEqual(all['support-bot'], {
      kind: 'http',
      http: {
        url: 'http://127.0.0.1:18700/chat',
        headers: { Authorization: 'Bearer ${BOT_TOKEN}' },
        body: '{"session": {{ session | tojson }}, "message": {{ prompt | tojson }}}',
        output: 'reply',
        toolCalls: 'calls',
      },
    });
    assert.deepEqual(all['my-agent'], { kind: 'module', module: './targets/agent.mjs' });
    assert.deepEqual(all['my-script'], { kind: 'exec', exec: ['python3', 'bot.py'], timeoutMs: 30000 });
    assert.deepEqual(all['small']?.['price'], { input: 0.15, output: 0.6 });
  });

  it('does not share the declaration\'s objects (a change to the record cannot change the declaration)', () => {
    const declaration = configFolder().load('models:\n  a:\n    exec: [python3, bot.py]\n').models.get('a') as ModelDeclaration & { kind: 'exec' };
    (recordedDeclaration(declaration)['exec'] as string[]).push('--x');
    assert.deepEqual(declaration.exec, ['python3', 'bot.py']);
  });
});

describe('the declaration hash and the first difference', () => {
  const base = 'models:\n  a:\n    provider: openai\n    model: gemma\n    params: { temperature: 0, max_tokens: 64 }\n    rpm: 60\n';

  it('is the same whatever order the file writes keys in, and for different rate limits and concurrency', () => {
    const reordered = 'models:\n  a:\n    concurrency: 4\n    params: { max_tokens: 64, temperature: 0 }\n    model: gemma\n    provider: openai\n    rpm: 600\n    timeoutMs: 5000\n';
    assert.equal(declarationHash(recorded(base)), declarationHash(recorded(reordered)));
    assert.equal(firstDeclarationDifference(recorded(base), recorded(reordered)), undefined);
    assert.match(declarationHash(recorded(base)), /^[0-9a-f]{64}$/);
  });

  it('differs for a changed parameter, naming the field with both values', () => {
    const changed = recorded(base.replace('temperature: 0', 'temperature: 0.7'));
    assert.notEqual(declarationHash(recorded(base)), declarationHash(changed));
    assert.deepEqual(firstDeclarationDifference(recorded(base), changed), { field: 'params.temperature', stored: 0, current: 0.7 });
    assert.equal(
      declarationChangeMessage('a', recorded(base), changed, 'the resume'),
      'model "a": the resume declares it differently from the run\'s record: params.temperature was 0, is 0.7; measure the changed system in a new run, or restore the declaration',
    );
    assert.equal(declarationChangeMessage('a', recorded(base), recorded(base)), undefined);
  });

  it('names an added field, a header and an argument, and a change of kind', () => {
    const http = (headers: string) => `models:\n  a:\n    http:\n      url: http://h/chat\n      headers: ${headers}\n      body: '{}'\n      output: reply\n`;
    assert.deepEqual(firstDeclarationDifference(recorded(base), recorded(base.replace('model: gemma', 'model: gemma\n    baseUrl: http://h/v1'))), {
      field: 'baseUrl',
      stored: undefined,
      current: 'http://h/v1',
    });
    assert.equal(firstDeclarationDifference(recorded(http('{ A: "${X}" }')), recorded(http('{ A: "${Y}" }')))?.field, 'http.headers.A');
    assert.equal(firstDeclarationDifference(recorded('models:\n  a:\n    exec: [python3, a.py]\n'), recorded('models:\n  a:\n    exec: [python3, b.py]\n'))?.field, 'exec[1]');
    assert.equal(firstDeclarationDifference(recorded(base), recorded('models:\n  a:\n    module: m.mjs\n'))?.field, 'kind');
  });

  it('counts a price change (one run\'s costs are on one price)', () => {
    assert.equal(firstDeclarationDifference(recorded(`${base}    price: { input: 1, output: 2 }\n`), recorded(`${base}    price: { input: 1, output: 3 }\n`))?.field, 'price.output');
  });
});
