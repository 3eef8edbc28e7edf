import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assay } from '../../src/testing/cli-harness.js';

test('run --help lists local: model ids with the offline recipe, and says which samples --limit and --sample keep', async () => {
  const help = await assay(['run', '--help']);
  assert.equal(help.code, 0, help.stderr);
  const text = help.stdout.replace(/\s+/g, ' ');
  assert.match(text, /local:<file\.gguf> \(a GGUF model run in-process, no key, no server/);
  assert.match(text, /local:hf:<owner>\/<repo>\/<file\.gguf>/);
  assert.match(text, /Offline \(no access to the hub\): copy the \.gguf over and give local:\.\/file\.gguf/);
  assert.match(text, /docs\/local-models\.md/);
  assert.match(text, /-n, --limit <n> keep only the first N samples in the task's order/);
  assert.match(text, /--sample <n> a seeded sample of N samples \(by --seed\), in proportion to each category/);
});
