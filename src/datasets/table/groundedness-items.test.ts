import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { packageRoot } from '../../version.js';
import { loadGroundednessItems } from './groundedness-items.js';

const work = mkdtempSync(path.join(tmpdir(), 'assay-grounded-'));
const write = (name: string, text: string): string => {
  const file = path.join(work, name);
  writeFileSync(file, text);
  return file;
};

describe('loadGroundednessItems', () => {
  it('reads the shipped example: 8 items with ids, questions, contexts and answers', async () => {
    const { items } = await loadGroundednessItems(path.join(packageRoot, 'examples', 'groundedness.jsonl'), 'required');
    assert.equal(items.length, 8);
    assert.equal(items[0]?.id, 'bridge-date');
    assert.ok(items.every((i) => i.answer && i.context && i.question));
  });

  it('CSV with renamed columns; without answers when a model answers', async () => {
    const file = write('a.csv', 'key,q,ctx,reply\n1,Who?,Ann did it.,Ann\n');
    const { items } = await loadGroundednessItems(file, 'required', { id: 'key', question: 'q', context: 'ctx', answer: 'reply' });
    assert.deepEqual(items.map((i) => [i.id, i.question, i.context, i.answer]), [['1', 'Who?', 'Ann did it.', 'Ann']]);
    const bare = await loadGroundednessItems(write('b.jsonl', '{"question": "Q", "context": "C"}\n'), 'ignored');
    assert.deepEqual(bare.items.map((i) => [i.id, i.answer]), [['line-1', undefined]]);
  });

  it('refuses a missing column, an empty value and a duplicate id with file and line', async () => {
    const refused = (promise: Promise<unknown>, expected: RegExp) => assert.rejects(promise, (e: unknown) => e instanceof InputError && expected.test(e.message));
    await refused(loadGroundednessItems(write('c.jsonl', '{"question": "Q", "context": "C"}\n'), 'required'), /c\.jsonl: no column "answer"/);
    await refused(loadGroundednessItems(write('d.jsonl', '{"question": "Q", "context": " ", "answer": "A"}\n'), 'required'), /d\.jsonl:1: "context" is empty/);
    await refused(loadGroundednessItems(write('e.jsonl', '{"id": 1, "question": "Q", "context": "C", "answer": "A"}\n{"id": "1", "question": "Q", "context": "C", "answer": "A"}\n'), 'required'), /e\.jsonl:2: duplicate id "1"/);
  });
});
