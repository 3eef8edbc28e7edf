// RFC 4180 records read in one pass, for data files large enough that parsing them is a measured
// share of a run's start-up (MetaTool's 2.7 MB all_clean_data.csv: csv-parse spent ~0.5 s CPU and
// ~20 MB of garbage on it, this reader a few tens of ms). It reads exactly what csv-parse reads
// with `{ bom: true, relax_column_count: true, skip_empty_lines: true }` and refuses what csv-parse
// refuses (csv-records.test.ts checks both on random inputs); users' own CSV files still go
// through csv-parse (datasets/table/), where its options and messages matter more than speed.

/** One record and the 1-based line it starts on. */
export interface CsvRecord {
  readonly fields: string[];
  readonly line: number;
}

/** Malformed CSV, with the line where the problem is (`lines`, as csv-parse's errors have it). */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly lines: number,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** A character beyond Latin-1: one of them makes V8 hold a whole text two bytes a character. */
const WIDE = /[^\u0000-\u00ff]/g;

/**
 * `text.slice(from, to)` for the fields of `text`, one byte a character where the field allows. A
 * text with a single character beyond Latin-1 is held two bytes a character, and so is every slice
 * of it: MetaTool's CSV has 126 such characters on 61 of its 20,616 lines, which made every query
 * two-byte, and with it every prompt, call cache key and request body built from one (hashing and
 * sending them cost ~6 µs more per call, measured). A field without such a character is sliced
 * from a one-byte copy of the text instead (the same characters; wide ones, never sliced from it,
 * are cut to their low byte there). The copy costs a few ms for the 2.7 MB file.
 */
function fieldSlicer(text: string): (from: number, to: number) => string {
  const wideAt: number[] = [];
  for (const match of text.matchAll(WIDE)) wideAt.push(match.index);
  if (wideAt.length === 0) return (from, to) => text.slice(from, to);
  const narrow = Buffer.from(text, 'latin1').toString('latin1');
  // Fields are sliced in order: the next wide character at or after a field's start only moves on.
  let next = 0;
  return (from, to) => {
    while (next < wideAt.length && (wideAt[next] as number) < from) next++;
    return next < wideAt.length && (wideAt[next] as number) < to ? ownCopy(text.slice(from, to)) : narrow.slice(from, to);
  };
}

/**
 * An equal string in memory of its own (UTF-16 code units as they are, lone surrogates included).
 * V8 keeps a slice of 13 or more characters as a view of its whole parent: a MetaTool query kept
 * for the run that is a slice of the two-byte text kept all 5.4 MB of it alive, besides the
 * one-byte copy the other fields are sliced from (docs/benchmarks.md). Only the wide fields are
 * copied: 61 lines of MetaTool's CSV.
 */
const ownCopy = (field: string): string => Buffer.from(field, 'utf16le').toString('utf16le');

/** Every record of `text`: a leading BOM dropped, empty lines skipped, records of any length. */
export function readCsvRecords(text: string): CsvRecord[] {
  const n = text.length;
  const slice = fieldSlicer(text);
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  // The record delimiter is the first line break met outside quotes (\r\n, \n or \r), as
  // csv-parse detects it; any other line-break character after that is data.
  let delimiter: '' | '\n' | '\r' | '\r\n' = '';
  const lineBreakAt = (at: number): number => {
    const c = text.charCodeAt(at);
    if (c !== LF && c !== CR) return 0;
    if (delimiter === '') delimiter = c === LF ? '\n' : text.charCodeAt(at + 1) === LF ? '\r\n' : '\r';
    if (delimiter === '\r\n') return c === CR && text.charCodeAt(at + 1) === LF ? 2 : 0;
    return (delimiter === '\n' ? c === LF : c === CR) ? 1 : 0;
  };
  const newlinesIn = (from: number, to: number): number => {
    let count = 0;
    for (let k = text.indexOf('\n', from); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) count++;
    return count;
  };
  const records: CsvRecord[] = [];
  while (i < n) {
    const empty = lineBreakAt(i);
    if (empty > 0) {
      i += empty;
      line++;
      continue;
    }
    const start = line;
    const fields: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        const opened = line;
        let value = '';
        let from = i + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q === -1) throw new CsvSyntaxError(`a quoted field opened on line ${opened} is never closed`, opened);
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += slice(from, q + 1);
            from = q + 2;
            continue;
          }
          value += slice(from, q);
          line += newlinesIn(i, q);
          i = q + 1;
          break;
        }
        if (i < n && text.charCodeAt(i) !== COMMA && lineBreakAt(i) === 0) {
          throw new CsvSyntaxError(`line ${line}: a quoted field's closing quote is followed by ${JSON.stringify(text[i])}, not a comma or the end of the line`, line);
        }
        fields.push(value);
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === COMMA || ((c === LF || c === CR) && lineBreakAt(j) > 0)) break;
          if (c === QUOTE) throw new CsvSyntaxError(`line ${line}: a quote inside an unquoted field (quote the whole field and double the quote)`, line);
          j++;
        }
        fields.push(slice(i, j));
        i = j;
      }
      if (i >= n) break;
      if (text.charCodeAt(i) === COMMA) {
        i++;
        if (i >= n) {
          fields.push('');
          break;
        }
        continue;
      }
      i += lineBreakAt(i);
      line++;
      break;
    }
    records.push({ fields, line: start });
  }
  return records;
}
