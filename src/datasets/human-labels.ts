import { InputError, sha256 } from '../core/index.js';
import { readTextFile } from './read-text-file.js';
import { parseCsvRows } from './table/read-table.js';

/** One human annotation: a sample's severity on the guideline's scale. */
export interface HumanLabel {
  readonly sampleId: string;
  readonly severity: number;
  /** Its line in the labels file. */
  readonly line: number;
}

export interface HumanLabels {
  readonly file: string;
  /** In file order. */
  readonly labels: readonly HumanLabel[];
  readonly bySample: ReadonlyMap<string, number>;
  /** sha256 of the file's bytes. */
  readonly sha256: string;
}

/** The lowest and highest severity of a scale (its levels are contiguous). */
export interface ScaleRange {
  readonly min: number;
  readonly max: number;
}

/** What labels are checked against: the samples that exist and the scale they are on. */
export interface LabelExpectations {
  readonly knownIds: ReadonlySet<string>;
  readonly scale: ScaleRange;
}

/**
 * Reads a human-labels CSV file (`sampleId,severity`, header first; other columns, such as notes,
 * are ignored) — the resource's own, or one given to `assay agreement --labels`.
 * @throws InputError naming the file (and line): unreadable, invalid CSV, no `sampleId` or
 * `severity` column, no rows, an unknown sample id, a duplicate, a severity that is not an
 * integer on the scale.
 */
export async function loadHumanLabels(file: string, expected: LabelExpectations): Promise<HumanLabels> {
  const { bytes, text } = await readTextFile(file);
  return { ...parseHumanLabels(file, text, expected), sha256: sha256(bytes) };
}

/** {@link loadHumanLabels} on text already read (the resource loader reads through its checksummed reader). */
export function parseHumanLabels(file: string, text: string, expected: LabelExpectations): Omit<HumanLabels, 'sha256'> {
  const rows = parseCsvRows(file, text);
  if (rows.length === 0) throw new InputError(`${file}: no labels; expected a header "sampleId,severity" and one row a sample`, { file });
  for (const column of ['sampleId', 'severity']) {
    if (!(column in (rows[0]?.fields ?? {}))) throw new InputError(`${file}:1: no column "${column}"; expected a header "sampleId,severity"`, { file, line: 1 });
  }
  const { min, max } = expected.scale;
  const bySample = new Map<string, number>();
  const lines = new Map<string, number>();
  const labels = rows.map(({ fields, line }): HumanLabel => {
    const where = { file, line };
    const sampleId = String(fields['sampleId'] ?? '').trim();
    if (!expected.knownIds.has(sampleId)) throw new InputError(`${file}:${line}: unknown sample id "${sampleId}"`, where);
    const earlier = lines.get(sampleId);
    if (earlier !== undefined) throw new InputError(`${file}:${line}: sample "${sampleId}" is labelled twice (also on line ${earlier})`, where);
    const raw = String(fields['severity'] ?? '').trim();
    const severity = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(severity) || severity < min || severity > max) {
      throw new InputError(`${file}:${line}: severity "${raw}" for "${sampleId}" is not an integer from ${min} to ${max}`, where);
    }
    bySample.set(sampleId, severity);
    lines.set(sampleId, line);
    return { sampleId, severity, line };
  });
  return { file, labels, bySample };
}
