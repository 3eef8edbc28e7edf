import { InputError, parseYamlFile } from '../../core/index.js';
import { parseCsvRows, scalar } from '../table/read-table.js';
import type { NamedAt, ResourceFiles } from './resource-files.js';

/** One row of a parameter set: the values that fill a template once. */
export interface ParameterRow {
  /** From the row's `id` (column or key), else its 1-based position in the set. */
  readonly id: string;
  /** The line of the row in its file (a CSV record, a YAML list item), for messages. */
  readonly line: number;
  readonly values: Readonly<Record<string, unknown>>;
}

export interface ParameterSet {
  /** The file, as messages name it. */
  readonly file: string;
  readonly rows: readonly ParameterRow[];
}

/** Row ids go into sample ids after a `/`; they must not hold one. */
const ROW_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Reads a parameter set: a CSV file with a header (`.csv`), or a YAML list of mappings
 * (`.yaml`/`.yml`).
 * @throws InputError naming the file (and line): unreadable, invalid, not a list of mappings, no
 * rows, an `id` that is empty or has characters other than letters, digits, `.`, `_`, `-`, a
 * duplicate id.
 */
export async function loadParameterSet(files: ResourceFiles, relative: string, namedAt?: NamedAt): Promise<ParameterSet> {
  const { file, text } = await files.read(relative, namedAt);
  let raw: { values: Record<string, unknown>; line: number }[];
  if (/\.csv$/i.test(relative)) raw = parseCsvRows(file, text).map((row) => ({ values: { ...row.fields }, line: row.line }));
  else if (/\.ya?ml$/i.test(relative)) raw = yamlRows(file, text);
  else throw new InputError(`${file}: a parameter set is a .csv, .yaml or .yml file`, { file });
  if (raw.length === 0) throw new InputError(`${file}: no parameter rows; each row makes one persona`, { file });

  const seen = new Map<string, number>();
  const rows = raw.map(({ values, line }, index): ParameterRow => {
    const given = values['id'];
    const id = given === undefined ? String(index + 1) : scalar(given)?.trim();
    if (id === undefined || !ROW_ID.test(id)) {
      throw new InputError(`${file}:${line}: id ${JSON.stringify(given)} must be a non-empty string or number of letters, digits, ".", "_" and "-"`, { file, line });
    }
    const earlier = seen.get(id);
    if (earlier !== undefined) throw new InputError(`${file}:${line}: duplicate id "${id}" (also on line ${earlier})`, { file, line });
    seen.set(id, line);
    return { id, line, values };
  });
  return { file, rows };
}

function yamlRows(file: string, text: string): { values: Record<string, unknown>; line: number }[] {
  const yaml = parseYamlFile(file, text);
  if (yaml.value === null || yaml.value === undefined) return [];
  if (!Array.isArray(yaml.value)) throw new InputError(`${file}:${yaml.lineOf([])}: expected a list of mappings (one "- key: value" item a row)`, { file, line: yaml.lineOf([]) });
  return yaml.value.map((item: unknown, i) => {
    const line = yaml.lineOf([i]);
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new InputError(`${file}:${line}: a row must be a mapping of parameter names to values`, { file, line });
    return { values: item as Record<string, unknown>, line };
  });
}
