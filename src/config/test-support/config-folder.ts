import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InputError } from '../../core/index.js';
import { locateConfigFile } from '../config-location.js';
import { loadConfig, type AssayConfig, type LoadConfigOptions } from '../load-config.js';

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder to write config files into, as a user's working directory (removed when the test process ends). */
export function configFolder(): { readonly dir: string; write(name: string, text: string): string; load(text: string, options?: LoadConfigOptions): AssayConfig } {
  const dir = mkdtempSync(path.join(tmpdir(), 'assay-config-'));
  made.push(dir);
  const write = (name: string, text: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  return {
    dir,
    write,
    load(text, options) {
      write('assay.yaml', text);
      const location = locateConfigFile(dir, undefined, {});
      assert.ok(location, 'assay.yaml is found in the working directory');
      return loadConfig(location, options);
    },
  };
}

/** The InputError `run` throws, checked to be one line (the CLI prints it as one and exits 2). */
export function refusal(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InputError, `an InputError, not ${String(error)}`);
    assert.ok(!error.message.includes('\n'), `one line: ${error.message}`);
    return error;
  }
  assert.fail('expected an InputError');
}

/** The config file of issue 23, as a user would write it: one model of each kind. */
export const EXAMPLE_CONFIG = `models:
  small:
    provider: openai              # a wire format assay already speaks
    model: gemma-2-2b-it
    baseUrl: http://127.0.0.1:8000/v1
    apiKeyEnv: SMALL_KEY          # keys live only in the environment
    headers: { X-Team: evals }
    params: { temperature: 0, max_tokens: 512 }
    price: { input: 0.15, output: 0.60 }     # USD per million tokens
    rpm: 600
    tpm: 200000
    concurrency: 16
  big:
    provider: openai
    model: gpt-4o
    apiKeyEnv: OPENAI_API_KEY
  support-bot:                    # an application over HTTP
    http:
      url: http://127.0.0.1:18700/chat
      headers: { Authorization: "Bearer \${BOT_TOKEN}" }
      body: '{"session": {{ session | tojson }}, "message": {{ prompt | tojson }}}'
      output: reply
      toolCalls: calls
  my-agent:
    module: ./targets/agent.mjs
  my-script:
    exec: [python3, bot.py]
    timeoutMs: 30000
`;
