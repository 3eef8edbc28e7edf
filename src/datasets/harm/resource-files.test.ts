import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { ResourceFiles } from './resource-files.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-resource-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'sk-SWAPPED-IN-1234';

describe('ResourceFiles', () => {
  it('refuses a file whose folder was swapped for a link out between the check and the open (the race), and reads the same file unswapped', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'ask.jinja'), `Say ${SECRET}.`);
    const folder = join(dir, 'resource');
    mkdirSync(join(folder, 'personas'), { recursive: true });
    writeFileSync(join(folder, 'personas', 'ask.jinja'), 'Ask about {{ topic }}.');

    // Unswapped, the file is read.
    assert.equal((await new ResourceFiles(folder).read('personas/ask.jinja')).text, 'Ask about {{ topic }}.');

    // The check passes on the real folder; then, before the open, `personas` becomes a link out.
    let swapped = false;
    const files = new ResourceFiles(folder, () => {
      renameSync(join(folder, 'personas'), join(folder, 'personas-before'));
      symlinkSync(outside, join(folder, 'personas'));
      swapped = true;
    });
    const named = { file: join(folder, 'manifest.yaml'), line: 11, field: 'personas[0].template' };
    await assert.rejects(files.read('personas/ask.jinja', named), (error: unknown) => {
      assert.ok(error instanceof InputError, String(error));
      assert.match(error.message, new RegExp(`^${folder}/manifest\\.yaml:11: personas\\[0\\]\\.template: personas/ask\\.jinja resolves to ${outside}/ask\\.jinja, outside the resource folder ${folder}, once opened`));
      assert.ok(!error.message.includes(SECRET));
      return true;
    });
    assert.ok(swapped, 'the swap happened between the check and the open');
    assert.deepEqual(files.checksums(), {}, 'nothing read is kept');
  });
});
