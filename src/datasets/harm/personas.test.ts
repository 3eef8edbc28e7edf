import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { buildPersonas } from './personas.js';
import { ResourceFiles } from './resource-files.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-personas-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('buildPersonas', () => {
  it('refuses a resource whose renderings together pass the total time bound, naming the template, the bound and how many were rendered', async () => {
    // A first template of 3 honest rows, then one of 300 rows that each loop for some tens of ms:
    // within the 60 s a row may take, but seconds in all, past a total of 1 s.
    writeFileSync(join(dir, 'quick.jinja'), 'Ask about {{ topic }}.');
    writeFileSync(join(dir, 'quick.yaml'), ['- id: q1\n  topic: tea', '- id: q2\n  topic: tea', '- id: q3\n  topic: tea', ''].join('\n'));
    writeFileSync(join(dir, 'slow.jinja'), '{% for i in range(2000) %}{% set k = i %}{% endfor %}Ask about {{ topic }}.');
    writeFileSync(join(dir, 'slow.yaml'), Array.from({ length: 300 }, (_, n) => `- id: s${n + 1}\n  topic: tea\n`).join(''));
    const specs = [
      { id: 'quick', template: 'quick.jinja', parameters: 'quick.yaml' },
      { id: 'slow', template: 'slow.jinja', parameters: 'slow.yaml' },
    ];
    await assert.rejects(buildPersonas(new ResourceFiles(dir), specs, 1, { bounds: { timeMs: 60_000, totalTimeMs: 1000 } }), (error: unknown) => {
      assert.ok(error instanceof InputError, String(error));
      const match = /^\/.*\/slow\.jinja: refused: rendering the resource's personas took longer than the 1 s they may take together \(each within its own bound\): (\d+) rendered, (\d+) of them of this template's 300 rows; stopped at row "s(\d+)" \(\/.*\/slow\.yaml:(\d+)\)$/.exec(error.message);
      assert.ok(match, error.message);
      const [, all, ofThis, row, line] = match.map(Number) as [number, number, number, number, number];
      assert.ok(ofThis >= 1 && ofThis < 300, error.message);
      assert.equal(all, ofThis + 3);
      assert.equal(row, ofThis + 1);
      assert.equal(line, 2 * ofThis + 1);
      return true;
    });
  });
});
