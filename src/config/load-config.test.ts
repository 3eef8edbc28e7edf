import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bodyTemplateProblem } from '../models/providers/http/body-template.js';
import { declaredGenerateSettings } from './model-declaration.js';
import { configFolder, EXAMPLE_CONFIG, refusal } from './test-support/config-folder.js';

/** The message of the refusal of `text` as assay.yaml, loaded as the CLI loads it (with the `http` target's body check). */
function refusedAs(text: string, options: Parameters<ReturnType<typeof configFolder>['load']>[1] = { checkBodyTemplate: bodyTemplateProblem }): string {
  const folder = configFolder();
  return refusal(() => folder.load(text, options)).message;
}

const entry = (lines: string): string => `models:\n  a:\n${lines.replace(/^/gm, '    ')}\n`;

describe('loading a config file', () => {
  it('reads the issue\'s example: every kind, in file order, relative paths resolved against the file\'s folder', () => {
    const folder = configFolder();
    const config = folder.load(EXAMPLE_CONFIG);
    assert.equal(config.file, 'assay.yaml');
    assert.equal(config.dir, folder.dir);
    assert.deepEqual([...config.models.keys()], ['small', 'big', 'support-bot', 'my-agent', 'my-script']);
    assert.deepEqual([...config.models.values()].map((d) => d.kind), ['provider', 'provider', 'http', 'module', 'exec']);
    const small = config.models.get('small');
    assert.ok(small?.kind === 'provider');
    assert.deepEqual(small.headers, { 'X-Team': 'evals' });
    assert.deepEqual(small.price, { input: 0.15, output: 0.6 });
    assert.deepEqual(declaredGenerateSettings(small.params), { temperature: 0, maxTokens: 512 });
    assert.deepEqual(small.source, { file: 'assay.yaml', line: 2 });
    const agent = config.models.get('my-agent');
    assert.ok(agent?.kind === 'module');
    assert.equal(agent.modulePath, path.join(folder.dir, 'targets', 'agent.mjs'));
    const script = config.models.get('my-script');
    assert.ok(script?.kind === 'exec');
    assert.deepEqual(script.exec, ['python3', 'bot.py']);
    assert.equal(script.timeoutMs, 30000);
    assert.equal(script.cwd, folder.dir);
    assert.equal(config.where('support-bot', ['http', 'headers', 'Authorization']), 'assay.yaml:20: models.support-bot.http.headers.Authorization');
  });

  it('maps every sampling parameter to the run\'s settings', () => {
    const config = configFolder().load(entry('provider: anthropic\nmodel: claude\nparams: { temperature: 0.5, top_p: 0.9, max_tokens: 100, seed: 7, stop: ["END"] }'));
    const a = config.models.get('a');
    assert.ok(a?.kind === 'provider');
    assert.deepEqual(declaredGenerateSettings(a.params), { temperature: 0.5, topP: 0.9, maxTokens: 100, seed: 7, stop: ['END'] });
  });

  it('takes an empty models map (a file may be there before its first model)', () => {
    assert.equal(configFolder().load('models: {}\n').models.size, 0);
  });
});

describe('names', () => {
  it('refuses a name with ":", saying why', () => {
    assert.equal(
      refusedAs('models:\n  ok:\n    module: a.mjs\n  openai:small:\n    provider: openai\n    model: x\n'),
      'assay.yaml:4: models.openai:small: a name has no ":" — "provider:model" is how a provider\'s model is written, so "openai:small" would be read as one; name it without the colon',
    );
  });

  it('refuses a name a flag or a file name would not take as it is', () => {
    assert.match(refusedAs('models:\n  my bot:\n    module: a.mjs\n'), /^assay\.yaml:2: models\.my bot: a name starts with a letter or digit and holds only letters, digits, "\.", "_" and "-"$/);
    assert.match(refusedAs('models:\n  -x:\n    module: a.mjs\n'), /^assay\.yaml:2: models\.-x: a name starts/);
  });
});

describe('unknown keys name the nearest valid one', () => {
  it('at the top level', () => {
    assert.equal(refusedAs('modles:\n  a: {module: a.mjs}\n'), 'assay.yaml:1: modles: unknown key; did you mean "models"?');
    assert.equal(refusedAs('models: {}\nextra: 1\n'), 'assay.yaml:2: extra: unknown key; valid keys here: models, suites');
  });

  it('in an entry, in params, in http and in price', () => {
    assert.equal(refusedAs(entry('provider: openai\nmodel: x\napi_key_env: K')), 'assay.yaml:5: models.a.api_key_env: unknown key; did you mean "apiKeyEnv"?');
    assert.equal(refusedAs(entry('provider: openai\nmodel: x\nparams: { temprature: 1 }')), 'assay.yaml:5: models.a.params.temprature: unknown key; did you mean "temperature"?');
    assert.equal(refusedAs(entry('http:\n  url: http://h/\n  body: "{}"\n  output: r\n  outptu: s')), 'assay.yaml:7: models.a.http.outptu: unknown key; did you mean "output"?');
    assert.equal(refusedAs(entry('module: a.mjs\nprice: { input: 1, ouput: 2 }')), 'assay.yaml:4: models.a.price.ouput: unknown key; did you mean "output"?');
  });

  it('points a sampling parameter written beside provider: to params:', () => {
    assert.equal(
      refusedAs(entry('provider: openai\nmodel: x\ntemprature: 0')),
      'assay.yaml:5: models.a.temprature: unknown key; a sampling parameter goes under params: (params: { temperature: … })',
    );
  });

  it('lists the valid keys when none is near', () => {
    assert.match(refusedAs(entry('exec: [a]\nzzzzzz: 1')), /^assay\.yaml:4: models\.a\.zzzzzz: unknown key; valid keys here: exec, price, rpm, tpm, concurrency, timeoutMs$/);
  });

  it('a misspelt kind key is told as such, not as an entry of no kind', () => {
    assert.equal(refusedAs(entry('provder: openai\nmodel: x')), 'assay.yaml:3: models.a.provder: unknown key; did you mean "provider"?');
  });
});

describe('kinds', () => {
  it('refuses an entry of no kind, naming the four', () => {
    assert.match(refusedAs(entry('model: gpt-4o')), /^assay\.yaml:2: models\.a: declares no target; give one of provider: .*, http: .*, module: .* or exec: /);
  });

  it('refuses an entry of two kinds', () => {
    assert.equal(refusedAs(entry('provider: openai\nmodel: x\nexec: [a]')), 'assay.yaml:5: models.a: declares both provider and exec; an entry is one target (give each its own name)');
  });

  it('refuses an entry that is not a mapping', () => {
    assert.equal(refusedAs('models:\n  a: openai:gpt-4o\n'), 'assay.yaml:2: models.a: expected a mapping (provider, http, module, exec and its settings), got a string');
  });

  it('refuses a provider assay does not speak, suggesting the nearest', () => {
    assert.equal(refusedAs(entry('provider: opnai\nmodel: x')), 'assay.yaml:3: models.a.provider: "opnai" is not one of openai, anthropic, gemini, ollama, local; did you mean "openai"?');
  });

  it('refuses server settings on a local model and a key on ollama', () => {
    assert.match(refusedAs(entry('provider: local\nmodel: m.gguf\nbaseUrl: http://h/v1')), /^assay\.yaml:5: models\.a\.baseUrl: a local model runs in this process/);
    assert.match(refusedAs(entry('provider: ollama\nmodel: llama3\napiKeyEnv: K')), /^assay\.yaml:5: models\.a\.apiKeyEnv: ollama takes no key/);
  });
});

describe('values', () => {
  it('names a missing required key at its parent\'s line', () => {
    assert.equal(refusedAs(entry('provider: openai')), 'assay.yaml:2: models.a.model: missing (required)');
    assert.equal(refusedAs(entry('http:\n  url: http://h/\n  body: "{}"')), 'assay.yaml:3: models.a.http.output: missing (required)');
  });

  it('names a mistyped value without quoting it (it could be a key)', () => {
    assert.equal(refusedAs(entry('module: a.mjs\nrpm: 1.5')), 'assay.yaml:4: models.a.rpm: expected an integer, got a number');
    assert.equal(refusedAs(entry('http:\n  url: http://h/\n  headers: { X-Version: 2 }\n  body: "{}"\n  output: r')), 'assay.yaml:5: models.a.http.headers.X-Version: expected a string, got an integer');
    assert.equal(refusedAs(entry('module: a.mjs\nconcurrency: 0')), 'assay.yaml:4: models.a.concurrency: must be at least 1');
    assert.equal(refusedAs(entry('provider: openai\nmodel: x\nparams: { top_p: 0 }')), 'assay.yaml:5: models.a.params.top_p: must be more than 0');
    assert.equal(refusedAs(entry('provider: openai\nmodel: x\nparams: { top_p: 1.5 }')), 'assay.yaml:5: models.a.params.top_p: must be at most 1');
    assert.equal(refusedAs(entry('provider: openai\nmodel: ""')), 'assay.yaml:4: models.a.model: must not be empty');
  });

  it('refuses a URL that is not http(s), with ${VAR} allowed anywhere in it', () => {
    assert.match(refusedAs(entry('provider: openai\nmodel: x\nbaseUrl: ftp://h/v1')), /^assay\.yaml:5: models\.a\.baseUrl: must be an http:\/\/ or https:\/\/ URL/);
    assert.match(refusedAs(entry('provider: openai\nmodel: x\nbaseUrl: 127.0.0.1:8000')), /^assay\.yaml:5: models\.a\.baseUrl: must be an http/);
    const config = configFolder().load(entry('provider: openai\nmodel: x\nbaseUrl: "http://${HOST}:${PORT}/v1"'));
    assert.ok(config.models.has('a'));
  });

  it('refuses a header value with a line break (it would add headers of its own) and a bad header name', () => {
    assert.match(refusedAs(entry('provider: openai\nmodel: x\nheaders: { X-A: "a\\r\\nX-B: b" }')), /^assay\.yaml:5: models\.a\.headers\.X-A: must be one line/);
    assert.match(refusedAs(entry('provider: openai\nmodel: x\nheaders: { "X A": b }')), /^assay\.yaml:5: models\.a\.headers\.X A: must be an HTTP header name/);
  });

  it('refuses a ${...} that is not a variable reference, in a header value and in a URL, naming the field', () => {
    assert.match(refusedAs(entry('provider: openai\nmodel: x\nheaders: { X-A: "Bearer ${a-b}" }')), /^assay\.yaml:5: models\.a\.headers\.X-A: "\$\{a-b\}" is not an environment variable reference/);
    assert.match(refusedAs(entry('provider: openai\nmodel: x\nbaseUrl: "http://${1HOST}/v1"')), /^assay\.yaml:\d+: models\.a\.baseUrl: "\$\{1HOST\}" is not an environment variable reference/);
  });

  it('refuses one header given twice in different case (both would be sent)', () => {
    assert.equal(
      refusedAs(entry('provider: openai\nmodel: x\nheaders: { X-Team: a, x-team: b }')),
      'assay.yaml:5: models.a.headers.x-team: the same header as X-Team (header names ignore case); keep one',
    );
  });

  it('refuses an apiKeyEnv that is not a variable name', () => {
    assert.match(refusedAs(entry('provider: openai\nmodel: x\napiKeyEnv: sk-abc123')), /^assay\.yaml:5: models\.a\.apiKeyEnv: must be an environment variable name/);
  });

  it('refuses an exec without a program', () => {
    assert.equal(refusedAs(entry('exec: []')), 'assay.yaml:3: models.a.exec: needs at least the program: [program, argument, …]');
  });
});

describe('the file itself', () => {
  it('names a YAML syntax error\'s line', () => {
    assert.match(refusedAs('models:\n  a:\n    provider: [openai\n'), /^assay\.yaml:\d+: not valid YAML \(/);
  });

  it('refuses a key given twice rather than keeping the last', () => {
    assert.match(refusedAs(entry('provider: openai\nmodel: x\nmodel: y')), /^assay\.yaml:5: not valid YAML \(Map keys must be unique/);
  });

  it('refuses an empty file and a file that is not a mapping', () => {
    assert.equal(refusedAs(''), 'assay.yaml:1: expected a mapping with a models: key, got an empty file');
    assert.equal(refusedAs('- a\n'), 'assay.yaml:1: expected a mapping with a models: key, got a list');
    assert.equal(refusedAs('models:\n'), 'assay.yaml:1: models: expected a mapping of names to declarations, got nothing (null)');
    assert.equal(refusedAs('other: 1\n'), 'assay.yaml:1: other: unknown key; valid keys here: models, suites (and 1 more problem)');
  });

  it('tells the first problem in file order and how many more there are', () => {
    const text = 'models:\n  b:\n    provider: openai\n    model: x\n    rpm: -1\n  a:b:\n    module: m.mjs\n  c:\n    exec: []\n';
    assert.equal(refusedAs(text), 'assay.yaml:5: models.b.rpm: must be at least 1 (and 2 more problems)');
  });
});

describe('http body templates and JMESPath', () => {
  const http = (body: string, more = ''): string => entry(`http:\n  url: http://h/chat\n  body: ${body}\n  output: reply${more}`);

  it('takes a body that renders to JSON, loops over messages included', () => {
    const loop = `'{"m": [{% for m in messages %}{{ m.content | tojson }}{% if not loop.last %},{% endif %}{% endfor %}], "tools": {{ tools | tojson }}, "id": {{ sample_id | tojson }}, "who": {{ model | tojson }}, "s": {{ system | tojson }}, "t": {{ settings.temperature | tojson }}, "f": {{ response_format | tojson }}}'`;
    assert.ok(configFolder().load(http(loop), { checkBodyTemplate: bodyTemplateProblem }).models.has('a'));
  });

  it('checks each body once, with the check it is given, and says so; without one it leaves bodies to their targets', () => {
    const seen: [string, string][] = [];
    const checkBodyTemplate = (body: string, model: string) => {
      seen.push([body, model]);
      return undefined;
    };
    const text = `${http(`'{"m": "{{ prompt }}"}'`)}  b:\n    http:\n      url: http://h/chat\n      body: '{}'\n      output: reply\n`;
    const checked = configFolder().load(text, { checkBodyTemplate });
    assert.deepEqual(seen, [['{"m": "{{ prompt }}"}', 'a'], ['{}', 'b']]);
    assert.equal(checked.checkedBodies, true);
    const unchecked = configFolder().load(text);
    assert.equal(unchecked.checkedBodies, false, 'a body nobody checked is checked by its target');
    assert.equal(unchecked.models.size, 2);
  });

  it('refuses a body that does not render to JSON (a prompt pasted without tojson), at the body\'s line', () => {
    assert.equal(
      refusedAs(http(`'{"message": "{{ prompt }}"}'`)),
      'assay.yaml:5: models.a.http.body: does not render to JSON for an example request (Expected \',\' or \'}\' after property value in JSON at position 31); write each value as {{ name | tojson }}',
    );
  });

  it('refuses a body with a syntax error, at the body\'s line (block scalars too)', () => {
    assert.match(refusedAs(http(`'{"m": {{ prompt | tojson }'`)), /^assay\.yaml:5: models\.a\.http\.body: not a valid template \(/);
    assert.match(refusedAs(http(`|\n    {\n      "m": {% if prompt %}{{ prompt | tojson }}\n    }`)), /^assay\.yaml:5: models\.a\.http\.body: not a valid template \(/);
  });

  it('refuses a body reading a variable it is not given (it would send null)', () => {
    assert.equal(
      refusedAs(http(`'{"m": {{ message | tojson }}}'`)),
      'assay.yaml:5: models.a.http.body: reads message, which a body is not given (it has messages, prompt, system, tools, session, sample_id, model, settings, response_format)',
    );
  });

  it('refuses a body reading the clock (the call cache would never answer it)', () => {
    assert.match(refusedAs(http(`'{"t": {{ strftime_now("%Y") | tojson }}}'`)), /^assay\.yaml:5: models\.a\.http\.body: (does not render|reads strftime_now)/);
  });

  it('checks output and toolCalls with the JMESPath parser it is given, naming the field\'s line', () => {
    const seen: string[] = [];
    const checkJmesPath = (expression: string) => {
      seen.push(expression);
      return expression.includes('[') && !expression.includes(']') ? 'Unclosed [' : undefined;
    };
    const folder = configFolder();
    folder.load(http(`'{}'`, '\n  toolCalls: calls[*]\n  usage: meta.usage'), { checkJmesPath });
    assert.deepEqual(seen, ['reply', 'calls[*]', 'meta.usage']);
    assert.equal(refusal(() => folder.load(http(`'{}'`, '\n  toolCalls: calls[0'), { checkJmesPath })).message, 'assay.yaml:7: models.a.http.toolCalls: not a JMESPath expression (Unclosed [)');
  });
});
