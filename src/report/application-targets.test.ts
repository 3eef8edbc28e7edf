import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applicationTargetNote } from './application-targets.js';

const declared = (kinds: Record<string, string>) => ({ declarations: Object.fromEntries(Object.entries(kinds).map(([name, kind]) => [name, { declaration: { kind }, hash: 'h' }])) });

test('a harm run whose system under test is an application target says whose business the system prompt is', () => {
  const note = applicationTargetNote({ task: 'harm/system-prompt-leakage', models: ['bot', 'small'], provenance: declared({ bot: 'http', small: 'provider' }) });
  assert.match(note ?? '', /^bot \(http\): an application target; it was sent the resource's system prompt, and whether it used it is the application's own business/);
  assert.doesNotMatch(note ?? '', /small/);
  assert.match(applicationTargetNote({ task: 'harm:./mine', models: ['a', 'b'], provenance: declared({ a: 'module', b: 'exec' }) }) ?? '', /^a \(module\), b \(exec\): /);
});

test('no note for a model served over a provider, a run without a config file, or a task that is not harm', () => {
  assert.equal(applicationTargetNote({ task: 'harm/system-prompt-leakage', models: ['small'], provenance: declared({ small: 'provider' }) }), undefined);
  assert.equal(applicationTargetNote({ task: 'harm/system-prompt-leakage', models: ['openai:gpt-4o'], provenance: {} }), undefined);
  assert.equal(applicationTargetNote({ task: 'metatool/awareness', models: ['bot'], provenance: declared({ bot: 'http' }) }), undefined);
});
