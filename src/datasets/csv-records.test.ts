import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { rngFor } from '../core/random.js';
import { forEachCsvRecord, forEachCsvRecordOfBytes, readCsvRecords } from './csv-records.js';

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

  it('reads from UTF-8 bytes exactly what it reads from their decoded text, on 20,000 random byte strings', () => {
    /** The records visited and the error thrown (class, message, line), as text. */
    const visited = (read: (visit: (fields: readonly string[], line: number) => void) => void): string => {
      const out: [string[], number][] = [];
      try {
        read((fields, line) => out.push([[...fields], line]));
        return JSON.stringify(out);
      } catch (error) {
        return `${(error as Error).constructor.name} ${(error as Error).message} ${(error as { lines?: number }).lines} after ${JSON.stringify(out)}`;
      }
    };
    const rng = rngFor(11, 'csv-records bytes fuzz');
    // CSV's own characters, characters of 2, 3 and 4 bytes, a BOM, and bytes no UTF-8 text has.
    const pieces = ['a', ',', '"', '\n', '\r', '""', 'é', '\u4e00', '\u{1F600}', '\uFEFF'].map((p) => Buffer.from(p, 'utf8'));
    const stray = [0x80, 0xbf, 0xc3, 0xe4, 0xf0, 0xff, 0xef, 0xbb, 0xed, 0xa0].map((b) => Buffer.from([b]));
    let refused = 0;
    for (let t = 0; t < 20_000; t++) {
      const length = Math.floor(rng.next() * 16);
      const parts: Buffer[] = rng.next() < 0.1 ? [Buffer.from([0xef, 0xbb, 0xbf])] : [];
      for (let k = 0; k < length; k++) {
        const from = rng.next() < 0.25 ? stray : pieces;
        parts.push(from[Math.floor(rng.next() * from.length)] as Buffer);
      }
      const bytes = Buffer.concat(parts);
      const expected = visited((visit) => forEachCsvRecord(bytes.toString('utf8'), visit));
      if (expected.startsWith('CsvSyntaxError')) refused++;
      assert.equal(visited((visit) => forEachCsvRecordOfBytes(bytes, visit)), expected, bytes.toString('hex'));
    }
    assert.ok(refused > 2_000 && refused < 18_000, `refused ${refused} of 20,000`);
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
