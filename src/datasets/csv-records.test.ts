import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { rngFor } from '../core/random.js';
import { forEachCsvRecord, readCsvRecords } from './csv-records.js';

/** What csv-parse reads with the options readCsvRecords matches, or 'error'. */
function csvParse(text: string): string[][] | 'error' {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch {
    return 'error';
  }
}

function ours(text: string): string[][] | 'error' {
  try {
    return readCsvRecords(text).map((r) => r.fields);
  } catch {
    return 'error';
  }
}

describe('readCsvRecords', () => {
  it('reads fields, doubled quotes, quoted line breaks and the line each record starts on', () => {
    assert.deepEqual(readCsvRecords('\uFEFFQuery,Tool\nq1,A\n\n"multi\nline ""x""",B\nq2,"C"\n'), [
      { fields: ['Query', 'Tool'], line: 1 },
      { fields: ['q1', 'A'], line: 2 },
      { fields: ['multi\nline "x"', 'B'], line: 4 },
      { fields: ['q2', 'C'], line: 6 },
    ]);
  });

  it('takes the first line break as the record delimiter, as csv-parse does', () => {
    assert.deepEqual(ours('a,b\r\nc,d\r\n'), [['a', 'b'], ['c', 'd']]);
    assert.deepEqual(ours('a\rb,c\n'), [['a'], ['b', 'c\n']]);
    assert.deepEqual(ours('a,\n,\n'), [['a', ''], ['', '']]);
  });

  it('refuses a quote inside an unquoted field, text after a closing quote and an unclosed quote, with the line', () => {
    assert.throws(() => readCsvRecords('x,y\na"b,c\n'), (e: unknown) => (e as { lines?: number }).lines === 2);
    assert.throws(() => readCsvRecords('x,y\n"a"b,c\n'), (e: unknown) => (e as { lines?: number }).lines === 2);
    assert.throws(() => readCsvRecords('x,y\n\n"a\nb,c\n'), (e: unknown) => (e as { lines?: number }).lines === 3);
  });

  it('visits the records it returns, one array of fields reused (forEachCsvRecord)', () => {
    const text = 'a,b\n\n"c\nd",e,f\ng\n';
    const seen: { fields: string[]; line: number }[] = [];
    let array: readonly string[] | undefined;
    forEachCsvRecord(text, (fields, line) => {
      if (array !== undefined) assert.equal(fields, array);
      array = fields;
      seen.push({ fields: [...fields], line });
    });
    assert.deepEqual(seen, readCsvRecords(text));
  });

  it('reads exactly what csv-parse reads, and refuses what it refuses, on 20,000 random texts', () => {
    const rng = rngFor(7, 'csv-records fuzz');
    const random = (): number => rng.next();
    const alphabet = ['a', 'b', ',', '"', '\n', '\r', ' ', '\r\n', '""'];
    let accepted = 0;
    for (let t = 0; t < 20_000; t++) {
      const length = Math.floor(random() * 14);
      let text = random() < 0.1 ? '\uFEFF' : '';
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(random() * alphabet.length)];
      const expected = csvParse(text);
      if (expected !== 'error') accepted++;
      assert.deepEqual(ours(text), expected, `text ${JSON.stringify(text)}`);
    }
    // The comparison is only worth something if both outcomes were common.
    assert.ok(accepted > 2_000 && accepted < 18_000, `accepted ${accepted} of 20,000`);
  });
});
