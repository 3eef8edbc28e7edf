import { createRequire } from 'node:module';
import { InputError } from '../core/index.js';

/**
 * csv-parse, loaded when a review file is first parsed: `report/run-report.ts` reaches this module
 * through `analysis/review.ts`, so a static import put csv-parse (~4 MB) in every run
 * (docs/benchmarks.md, issue 29). Synchronous (`require`, as `core/yaml-file.ts` loads yaml).
 */
let csvParseModule: typeof import('csv-parse/sync') | undefined;
const csvParse = (): typeof import('csv-parse/sync') => (csvParseModule ??= createRequire(import.meta.url)('csv-parse/sync') as typeof import('csv-parse/sync'));

/** One line of a reviewer's file: which item, the reviewer's verdict, why. */
export interface ReviewLine {
  readonly line: number;
  readonly sampleId: string;
  /** Absent when the file has no `model` column (allowed only for a run with one model). */
  readonly modelId?: string;
  readonly verdict: boolean;
  readonly note: string;
}

const ID_COLUMNS = ['item', 'id', 'sample_id', 'serial_num'] as const;
const VERDICTS: Readonly<Record<string, boolean>> = { pass: true, fail: false, true: true, false: false };

/**
 * Parses a reviewer's CSV: a header naming the item column (`item`, `id`, `sample_id` or
 * `serial_num`: assay's sample id), `verdict` (pass / fail), and optionally `note` and `model`.
 * Errors name the file and line. An empty verdict is refused rather than read as "no opinion":
 * a reviewer who has none leaves the line out.
 */
export function parseReviewFile(text: string, file: string): ReviewLine[] {
  type Row = { record: string[]; endLine: number };
  let rows: Row[];
  try {
    const onRecord = (record: string[], context: { lines: number }): Row => ({ record, endLine: context.lines });
    rows = csvParse().parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, on_record: onRecord as unknown as (r: string[]) => string[] }) as unknown as Row[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new InputError(`${file}:${line === undefined ? '' : ` line ${line}:`} not valid CSV (${(error as Error).message})`, { file, ...(line === undefined ? {} : { line }) });
  }
  const [header, ...body] = rows;
  if (!header) throw new InputError(`${file}: empty; expected a header such as "item,verdict,note"`, { file });
  const columns = header.record.map((c) => c.trim().toLowerCase());
  const idColumn = columns.findIndex((c) => (ID_COLUMNS as readonly string[]).includes(c));
  const verdictColumn = columns.indexOf('verdict');
  if (idColumn < 0 || verdictColumn < 0) {
    throw new InputError(`${file}: line 1: expected a header with an item column (${ID_COLUMNS.join(' / ')}) and "verdict", got "${header.record.join(',')}"`, { file, line: 1 });
  }
  const noteColumn = columns.indexOf('note');
  const modelColumn = columns.indexOf('model');
  const seen = new Map<string, number>();
  return body.map(({ record, endLine }) => {
    const line = endLine - record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);
    const sampleId = (record[idColumn] ?? '').trim();
    const rawVerdict = (record[verdictColumn] ?? '').trim();
    const modelId = modelColumn >= 0 ? (record[modelColumn] ?? '').trim() : undefined;
    if (sampleId === '') throw new InputError(`${file}: line ${line}: the item column is empty`, { file, line });
    const verdict = VERDICTS[rawVerdict.toLowerCase()];
    if (verdict === undefined) throw new InputError(`${file}: line ${line}: verdict "${rawVerdict}" is not pass or fail`, { file, line });
    if (modelId === '') throw new InputError(`${file}: line ${line}: the model column is empty`, { file, line });
    const key = `${sampleId}\u0000${modelId ?? ''}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new InputError(`${file}: line ${line}: item "${sampleId}" is already reviewed on line ${earlier}`, { file, line });
    seen.set(key, line);
    return { line, sampleId, ...(modelId !== undefined ? { modelId } : {}), verdict, note: noteColumn >= 0 ? (record[noteColumn] ?? '') : '' };
  });
}
