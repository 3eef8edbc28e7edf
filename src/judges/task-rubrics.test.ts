import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { InputError } from '../core/index.js';
import { loadTaskRubrics } from './task-rubrics.js';

const SPECS = [{ key: 'groundedness', shipped: 'groundedness/groundedness', placeholders: ['question', 'context', 'answer'] }];
const dir = mkdtempSync(path.join(tmpdir(), 'assay-task-rubrics-'));
const write = (name: string, text: string): string => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};
const refused = (promise: Promise<unknown>, expected: RegExp): Promise<void> =>
  assert.rejects(promise, (e: unknown) => e instanceof InputError && expected.test(e.message) && !e.message.includes('\n'));

describe('loadTaskRubrics', () => {
  it('gives the shipped rubric, or the user\'s file (its checksum recorded under rubric:<key>)', async () => {
    const shipped = await loadTaskRubrics('quality/groundedness', SPECS);
    assert.match(shipped.rubrics['groundedness']?.source ?? '', /rubrics[/\\]groundedness[/\\]groundedness\.txt$/);
    const mine = write('mine.txt', 'Q {question} C {context} A {answer}');
    const own = await loadTaskRubrics('quality/groundedness', SPECS, { groundedness: path.relative(process.cwd(), mine) });
    assert.equal(own.rubrics['groundedness']?.source, mine, 'made absolute');
    assert.deepEqual(Object.keys(own.checksums), ['rubric:groundedness']);
    assert.notEqual(own.checksums['rubric:groundedness'], shipped.checksums['rubric:groundedness']);
  });

  it('refuses an unknown key and a file whose placeholders differ, naming the file', async () => {
    await refused(loadTaskRubrics('quality/groundedness', SPECS, { verdicts: 'x.txt' }), /^quality\/groundedness: no rubric verdicts; its rubrics are groundedness$/);
    const wrong = write('wrong.txt', 'Q {question} A {reply}');
    await refused(loadTaskRubrics('quality/groundedness', SPECS, { groundedness: wrong }), new RegExp(`rubric groundedness \\(${wrong.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): missing \\{context\\}, \\{answer\\}; unknown \\{reply\\}`));
    await refused(loadTaskRubrics('quality/groundedness', SPECS, { groundedness: path.join(dir, 'absent.txt') }), /cannot read .*absent\.txt/);
  });
});
