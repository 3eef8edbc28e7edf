import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import type { DataFileText } from './read-data-file.js';
import { metatoolFile, needsData } from '../../testing/test-data.js';
import { buildToolEPool, parseToolECsv, readToolEPool, type ToolEPool } from './toole.js';

const csvFile = (text: string): DataFileText => ({ key: 'metatool/data/all_clean_data.csv', file: '/data/metatool/data/all_clean_data.csv', text, sha256: 'x' });
const csvBytes = (text: string): { file: string; bytes: Buffer } => ({ file: '/data/metatool/data/all_clean_data.csv', bytes: Buffer.from(text, 'utf8') });

describe('parseToolECsv', () => {
  it('reads Query,Tool rows with the line each record starts on', () => {
    const rows = parseToolECsv(csvFile('Query,Tool\nq1,A\n"multi\nline",B\nq2,"C"\n'));
    assert.deepEqual(rows, [
      { query: 'q1', tool: 'A', line: 2 },
      { query: 'multi\nline', tool: 'B', line: 3 },
      { query: 'q2', tool: 'C', line: 5 },
    ]);
  });

  it('rejects a record without two fields, naming the file and the line', () => {
    assert.throws(
      () => parseToolECsv(csvFile('Query,Tool\nok,A\n"x\ny",B\nbad\n')),
      (e: unknown) => e instanceof InputError && e.message.includes('/data/metatool/data/all_clean_data.csv') && e.message.includes('line 5') && e.details?.line === 5,
    );
  });

  it('rejects an empty field', () => {
    assert.throws(() => parseToolECsv(csvFile('Query,Tool\nq1,\n')), (e: unknown) => e instanceof InputError && e.message.includes('line 2'));
  });

  it('rejects a wrong header', () => {
    assert.throws(() => parseToolECsv(csvFile('query,tool\nq1,A\n')), (e: unknown) => e instanceof InputError && e.message.includes('line 1') && e.message.includes('Query,Tool'));
  });

  it('turns a CSV syntax error into an InputError naming the file', () => {
    assert.throws(
      () => parseToolECsv(csvFile('Query,Tool\nq1,A\n"unclosed,B\n')),
      (e: unknown) => e instanceof InputError && e.message.startsWith('/data/metatool/data/all_clean_data.csv:') && /not valid CSV/.test(e.message),
    );
  });
});

describe('buildToolEPool', () => {
  // 7 rows, 5 distinct queries: q1 twice (same tool), q3 with two tools (ambiguous).
  const rows = parseToolECsv(csvFile('Query,Tool\nq1,A\nq2,A\nq1,A\nq3,B\nq3,C\n"multi\nline",B\nq4,C\n'));
  const pool = buildToolEPool(rows);

  it('deduplicates by query text and drops queries with two labels', () => {
    assert.deepEqual(pool.stats, { rows: 7, duplicateRows: 2, ambiguousQueries: 1, queries: 4 });
    assert.deepEqual(pool.queriesByTool.get('A'), ['q1', 'q2']);
    assert.deepEqual(pool.queriesByTool.get('B'), ['multi\nline']);
    assert.deepEqual(pool.queriesByTool.get('C'), ['q4']);
    assert.equal(pool.toolOfQuery.get('q3'), undefined);
    assert.equal(pool.toolOfQuery.get('q4'), 'C');
  });

  it('lists every tool of the CSV, sorted', () => {
    assert.deepEqual(pool.tools, ['A', 'B', 'C']);
  });

  it('keeps a tool whose only query was ambiguous, with no queries', () => {
    const p = buildToolEPool(parseToolECsv(csvFile('Query,Tool\nq,X\nq,Y\nr,Y\n')));
    assert.deepEqual(p.tools, ['X', 'Y']);
    assert.deepEqual(p.queriesByTool.get('X'), []);
    assert.deepEqual(p.queriesByTool.get('Y'), ['r']);
  });
});

describe('readToolEPool', () => {
  const poolJson = (pool: ToolEPool): string =>
    JSON.stringify({ tools: pool.tools, frozen: Object.isFrozen(pool.tools), byTool: [...pool.queriesByTool], ofQuery: [...pool.toolOfQuery], stats: pool.stats });
  /** The pool as JSON, or the error thrown (class, message, details). */
  const outcome = (build: () => ToolEPool): string => {
    try {
      return poolJson(build());
    } catch (error) {
      return `${(error as Error).constructor.name}: ${(error as Error).message} ${JSON.stringify((error as InputError).details)}`;
    }
  };

  it('builds the pool buildToolEPool builds from parseToolECsv, in the same orders', () => {
    const text = 'Query,Tool\nq1,A\nq2,A\nq1,A\nq3,B\nq3,C\n"multi\nline",B\nq4,C\nq,X\nq,Y\n';
    assert.equal(poolJson(readToolEPool(csvBytes(text))), poolJson(buildToolEPool(parseToolECsv(csvFile(text)))));
  });

  it('throws what parseToolECsv throws, a CSV syntax error first wherever it is', () => {
    for (const text of ['', 'query,tool\nq1,A\n', 'Query,Tool\nq1,\nq2,"x\n', 'query,tool\n"x"y,A\n', 'Query,Tool\nok,A\nbad\nq1,\n', 'Query,Tool\n\n"a\nb",B,C\n', 'Query,Tool\n"é"€,A\n', '\uFEFFQuery,Tool\nq\u4e00,A\nq2,\n']) {
      const expected = outcome(() => buildToolEPool(parseToolECsv(csvFile(text))));
      assert.match(expected, /^InputError/, JSON.stringify(text));
      assert.equal(outcome(() => readToolEPool(csvBytes(text))), expected, JSON.stringify(text));
    }
  });

  it('reads all_clean_data.csv into the pool its rows give', { skip: needsData('metatool') }, () => {
    const bytes = readFileSync(metatoolFile('data/all_clean_data.csv'));
    assert.equal(poolJson(readToolEPool({ file: 'f', bytes })), poolJson(buildToolEPool(parseToolECsv(csvFile(bytes.toString('utf8'))))));
  });
});

describe('parseToolECsv on the real file', () => {
  it('reads all_clean_data.csv exactly as csv-parse reads it (rows, fields and lines)', { skip: needsData('metatool') }, () => {
    const file = metatoolFile('data/all_clean_data.csv');
    const text = readFileSync(file, 'utf8');
    const rows = parseToolECsv(csvFile(text));
    const expected = (parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[]).slice(1);
    assert.equal(rows.length, expected.length);
    for (const [i, row] of rows.entries()) {
      const { record, info } = expected[i] as { record: string[]; info: { lines: number } };
      const startLine = info.lines - record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);
      assert.deepEqual(row, { query: record[0], tool: record[1], line: startLine }, `record ${i + 1}`);
    }
  });
});
