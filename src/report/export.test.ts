import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { formatRows, neutralizeFormula, type ExportRow } from './export.js';

const row = (output: string): ExportRow => ({
  sample_id: 's1',
  task: 'metatool/similar',
  model: 'openai:m',
  prompt: 'Pick a tool:\n1. tool name: A, "quoted"\ttab',
  candidates: ['A', 'B'],
  gold: 'A',
  output,
  answer: ['A'],
  score: 'pass',
  explanation: null,
  error: null,
});

test('spreadsheet formulas in untrusted cells are neutralized; other text is unchanged', () => {
  assert.equal(neutralizeFormula('=HYPERLINK("http://x","y")'), `'=HYPERLINK("http://x","y")`);
  for (const lead of ['+', '-', '@', '\t', '\r']) assert.equal(neutralizeFormula(`${lead}1`), `'${lead}1`);
  assert.equal(neutralizeFormula('A is the tool'), 'A is the tool');
});

test('CSV and TSV round-trip through a CSV parser, with quotes, tabs and newlines intact', () => {
  for (const [format, delimiter] of [['csv', ','], ['tsv', '\t']] as const) {
    const text = formatRows([row('I pick A, "obviously".'), row('=1+1')], format);
    const [header, first, second] = parse(text, { delimiter, relax_quotes: false }) as string[][];
    assert.equal(header?.[3], 'prompt');
    assert.equal(first?.[3], 'Pick a tool:\n1. tool name: A, "quoted"\ttab');
    assert.equal(first?.[4], '["A","B"]');
    assert.equal(first?.[6], 'I pick A, "obviously".');
    assert.equal(second?.[6], "'=1+1");
  }
  const jsonl = formatRows([row('=1+1')], 'jsonl');
  assert.equal((JSON.parse(jsonl) as ExportRow).output, '=1+1', 'JSONL stays byte-exact');
});
