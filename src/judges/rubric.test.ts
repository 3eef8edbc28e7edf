import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InputError } from '../core/index.js';
import { loadRubric, rubricPlaceholders } from './rubric.js';

describe('rubricPlaceholders', () => {
  it('lists identifier placeholders once each, in order of first appearance', () => {
    assert.deepEqual(rubricPlaceholders('[Query]\n{query}\n[Tools] {tools}\n{query} again {ground_truth} {_x1}'), ['query', 'tools', 'ground_truth', '_x1']);
  });

  it('leaves JSON and other braces alone', () => {
    const template = 'Answer {"reasoning": "...", "verdict": "pass"} or { } or {1a} or {a-b} or {a b}; {response}';
    assert.deepEqual(rubricPlaceholders(template), ['response']);
  });

  it('finds the identifier inside doubled braces (there is no {{ escape)', () => {
    assert.deepEqual(rubricPlaceholders('{{name}}'), ['name']);
  });

  it('returns nothing for a template without placeholders', () => {
    assert.deepEqual(rubricPlaceholders('grade it'), []);
  });
});

describe('loadRubric', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-rubric-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the template trimmed, with the sha256 of the file bytes', async () => {
    const path = join(dir, 'rubric_call.txt');
    const bytes = '\nGrade {response}.\nPass or fail?\n\n';
    await writeFile(path, bytes);
    const rubric = await loadRubric('functionchat/v2.0.0/call', path);
    assert.deepEqual(rubric, {
      id: 'functionchat/v2.0.0/call',
      source: path,
      template: 'Grade {response}.\nPass or fail?',
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  });

  it('keeps non-ASCII text intact', async () => {
    const path = join(dir, 'ko.txt');
    await writeFile(path, '한국어로 {response} 평가');
    assert.equal((await loadRubric('ko', path)).template, '한국어로 {response} 평가');
  });

  it('names the file when it is missing', async () => {
    const path = join(dir, 'missing.txt');
    await assert.rejects(loadRubric('x', path), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.equal(error.message, `rubric x: cannot read ${path}: no such file`);
      assert.deepEqual(error.details, { file: path });
      return true;
    });
  });

  it('names the file when it is a directory', async () => {
    await assert.rejects(loadRubric('x', dir), { name: 'InputError', message: `rubric x: cannot read ${dir}: it is a directory` });
  });

  it('names the file when it is empty or blank', async () => {
    for (const [name, content] of [['empty.txt', ''], ['blank.txt', ' \n\t\n']] as const) {
      const path = join(dir, name);
      await writeFile(path, content);
      await assert.rejects(loadRubric('x', path), (error: unknown) => {
        assert.ok(error instanceof InputError);
        assert.match(error.message, new RegExp(`^rubric x: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is empty`));
        assert.deepEqual(error.details, { file: path });
        return true;
      });
    }
  });
});
