import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { InputError, sha256 } from '../../core/index.js';
import type { OutputType, RubricFile } from '../../datasets/functionchat/index.js';
import { withCustomRubrics } from './custom-rubrics.js';

const dir = mkdtempSync(join(tmpdir(), 'assay-rubrics-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const shippedRubric = (type: OutputType): RubricFile => ({ id: `functionchat/v2.0.0/${type}`, source: `/data/${type}.txt`, template: `shipped ${type}`, sha256: 'a'.repeat(64) });
const shipped = { call: shippedRubric('call'), completion: shippedRubric('completion'), slot: shippedRubric('slot'), relevance: shippedRubric('relevance') };

const write = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

test('no custom rubrics: the shipped ones, no extra checksums', async () => {
  assert.deepEqual(await withCustomRubrics(shipped, undefined), { rubrics: shipped, checksums: {} });
});

test('a user rubric replaces one output type; its sha256 joins the checksums', async () => {
  const text = 'Grade {response} against {ground_truth} for {query} with {tools}. JSON like {"a": 1} is literal.\npass or fail?\n';
  const file = write('completion.txt', text);
  const { rubrics, checksums } = await withCustomRubrics(shipped, { completion: file });
  assert.equal(rubrics.completion.template, text.trim());
  assert.equal(rubrics.completion.id, 'custom/completion');
  assert.deepEqual(rubrics.call, shipped.call);
  assert.deepEqual(checksums, { [file]: sha256(Buffer.from(text)) });
});

test('refused before any call: an unknown type, a missing or unknown placeholder, a missing file', async () => {
  const ok = write('ok.txt', '{tools} {query} {ground_truth} {response}');
  await assert.rejects(withCustomRubrics(shipped, { answer: ok }), (e: unknown) => e instanceof InputError && /unknown output type "answer"/.test(e.message));
  // The call rubric also needs {acceptable_arguments}.
  await assert.rejects(withCustomRubrics(shipped, { call: ok }), (e: unknown) => e instanceof InputError && /missing \{acceptable_arguments\}/.test(e.message));
  const typo = write('typo.txt', '{tools} {query} {groundtruth} {response}');
  await assert.rejects(withCustomRubrics(shipped, { slot: typo }), (e: unknown) => e instanceof InputError && /missing \{ground_truth\}; unknown \{groundtruth\}/.test(e.message));
  await assert.rejects(withCustomRubrics(shipped, { slot: join(dir, 'nope.txt') }), (e: unknown) => e instanceof InputError && /no such file/.test(e.message));
});
