import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/index.js';
import { resolveOptions } from './options.js';

const refuses = (fn: () => unknown, part: string): void =>
  assert.throws(fn, (e: unknown) => e instanceof InputError && e.message.includes(part));

test('resolveOptions: tools and embedder are for metatool/similar only, and embedder needs tools', () => {
  assert.deepEqual(
    [resolveOptions('metatool/similar', { tools: '/t.json' }).tools, resolveOptions('metatool/similar', { tools: '/t.json', embedder: 'local:e.gguf' }).embedder],
    ['/t.json', 'local:e.gguf'],
  );
  assert.equal(resolveOptions('metatool/similar', {}).tools, undefined);
  refuses(() => resolveOptions('metatool/awareness', { tools: '/t.json' }), 'metatool/similar only');
  refuses(() => resolveOptions('metatool/multi', { embedder: 'lexical' }), 'metatool/similar only');
  refuses(() => resolveOptions('metatool/similar', { embedder: 'lexical' }), 'give tools');
  refuses(() => resolveOptions('metatool/similar', { tools: '' }), 'path of a tools file');
});
