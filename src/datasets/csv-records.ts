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
  const records: CsvRecord[] = [];
  forEachCsvRecord(text, (fields, line) => {
    records.push({ fields: fields.slice(), line });
  });
  return records;
}

/**
 * Reads `text` as `readCsvRecords` does, handing each record to `visit` as it is read, without
 * keeping any: a caller that builds its own structure from a big file (MetaTool's 20,616 lines)
 * spares the young generation a record object and an array for each. `fields` is the same array
 * for every record, valid during the call only: copy what is kept.
 * @throws CsvSyntaxError as `readCsvRecords` does, once the records before the problem were visited.
 */
export function forEachCsvRecord(text: string, visit: (fields: readonly string[], line: number) => void): void {
  scanRecords(text, text.charCodeAt(0) === 0xfeff ? 1 : 0, fieldSlicer(text), (at) => text[at] as string, visit);
}

/** Bytes of UTF-8 beyond ASCII: lead and continuation bytes alike, read as Latin-1 characters. */
const BEYOND_ASCII = /[\u0080-\u00ff]+/g;

/**
 * `forEachCsvRecord(bytes.toString('utf8'), visit)`, read from the bytes. A CSV's structure is all
 * ASCII (comma, quote, CR, LF), and in UTF-8 no byte of a character beyond ASCII is an ASCII
 * byte: the bytes read as Latin-1 characters, one a byte, have every comma, quote and line break
 * where the text has them, and a field of ASCII bytes only is the same characters in both. So the
 * records are found in that one-byte reading; a field with a byte beyond ASCII is decoded from its
 * own bytes (the same characters as in the decoded text, since it starts and ends at ASCII bytes,
 * where a UTF-8 decoder ends any sequence, invalid ones included). MetaTool's CSV was decoded into
 * a 2.77 M-character text held two bytes a character (126 characters beyond Latin-1: 5.5 MB in
 * V8's large-object space until a full collection) and copied into a one-byte text to slice from:
 * here neither is made. csv-records.test.ts checks both ways read the same on random bytes.
 */
export function forEachCsvRecordOfBytes(bytes: Buffer, visit: (fields: readonly string[], line: number) => void): void {
  const chars = bytes.toString('latin1');
  const runs: number[] = [];
  for (const match of chars.matchAll(BEYOND_ASCII)) runs.push(match.index, match.index + match[0].length);
  // Fields are sliced in order: the next run of bytes beyond ASCII that ends after a field's start only moves on.
  let next = 0;
  const slice = (from: number, to: number): string => {
    while (next < runs.length && (runs[next + 1] as number) <= from) next += 2;
    return next < runs.length && (runs[next] as number) < to ? bytes.toString('utf8', from, to) : chars.slice(from, to);
  };
  // The character the decoded text has at a byte where a character starts (for a message).
  const charAt = (at: number): string => (bytes[at] as number) < 0x80 ? (chars[at] as string) : (bytes.toString('utf8', at, Math.min(at + 4, bytes.length))[0] as string);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  scanRecords(chars, bom ? 3 : 0, slice, charAt, visit);
}

/**
 * The records of `text` from position `i` on. `slice` gives a field's characters from positions
 * in `text`, `charAt` the character at one, for a message.
 */
function scanRecords(
  text: string,
  i: number,
  slice: (from: number, to: number) => string,
  charAt: (at: number) => string,
  visit: (fields: readonly string[], line: number) => void,
): void {
  const n = text.length;
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
  // Where the next comma, quote, LF and CR are at or after a position (n: none), each found by
  // `indexOf` and searched again only once the scan has passed it. An unquoted field ends at the
  // first of them: the scan runs in native string search instead of a loop over every character
  // (MetaTool's 2.77 M characters: that loop, in code still cold at start-up, was ~100 ms of CPU).
  let comma = -1;
  let quote = -1;
  let lf = -1;
  let cr = -1;
  const nextOf = (char: string, at: number): number => {
    const k = text.indexOf(char, at);
    return k === -1 ? n : k;
  };
  const newlinesIn = (from: number, to: number): number => {
    if (lf < from) lf = nextOf('\n', from);
    let count = 0;
    for (; lf < to; lf = nextOf('\n', lf + 1)) count++;
    return count;
  };
  const scratch: string[] = [];
  while (i < n) {
    const empty = lineBreakAt(i);
    if (empty > 0) {
      i += empty;
      line++;
      continue;
    }
    const start = line;
    // One array for every record's fields (see `visit`): `readCsvRecords` copies them out at their
    // exact number, where an array grown by `push` from empty holds 17 slots (~150 bytes): for
    // 20,616 records ~3 MB more for the young generation to copy while the file is read.
    // Written by index and cut to the record's count at its end: setting an array's length is a
    // call into V8's runtime, which for 20,616 records of two fields each is worth sparing.
    const fields = scratch;
    let count = 0;
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
          throw new CsvSyntaxError(`line ${line}: a quoted field's closing quote is followed by ${JSON.stringify(charAt(i))}, not a comma or the end of the line`, line);
        }
        fields[count++] = value;
      } else {
        // The field ends at the first comma or line break; a quote before that is refused, and a
        // CR or LF that is not the record delimiter is data (as the loop over characters read it).
        let j = i;
        for (;;) {
          if (comma < j) comma = nextOf(',', j);
          if (quote < j) quote = nextOf('"', j);
          if (lf < j) lf = nextOf('\n', j);
          if (cr < j) cr = nextOf('\r', j);
          const stop = Math.min(comma, quote, lf, cr);
          if (stop === n || stop === comma) {
            j = stop;
            break;
          }
          if (stop === quote) throw new CsvSyntaxError(`line ${line}: a quote inside an unquoted field (quote the whole field and double the quote)`, line);
          if (lineBreakAt(stop) > 0) {
            j = stop;
            break;
          }
          j = stop + 1;
        }
        fields[count++] = slice(i, j);
        i = j;
      }
      if (i >= n) break;
      if (text.charCodeAt(i) === COMMA) {
        i++;
        if (i >= n) {
          fields[count++] = '';
          break;
        }
        continue;
      }
      i += lineBreakAt(i);
      line++;
      break;
    }
    if (fields.length !== count) fields.length = count;
    visit(fields, start);
  }
}
