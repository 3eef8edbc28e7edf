import { InputError } from '../../core/index.js';
import { readTable, scalar } from './read-table.js';

/** One groundedness item: a question, the context to answer from, and (unless a model answers) the answer to grade. */
export interface GroundednessItem {
  readonly id: string;
  readonly question: string;
  readonly context: string;
  /** Absent when the answers are to be produced by `--model`. */
  readonly answer?: string;
  readonly source: { readonly file: string; readonly line: number };
}

/** Column names (defaults `id` when present, `question`, `context`, `answer`). */
export interface GroundednessColumns {
  readonly id?: string;
  readonly question?: string;
  readonly context?: string;
  readonly answer?: string;
}

/**
 * Reads groundedness items from a CSV or JSONL file. With `answers: 'required'` every row must
 * carry an answer (the answers are graded as given); with `'ignored'` a model will answer, and an
 * answer column is not read; with `'if-present'`, answers are read (every row's) when the file has
 * the answer column, else none. `encoding`: `latin1` when the file is not valid UTF-8 (see `readTable`).
 * @throws InputError naming the file and line for a missing column, an empty value, a duplicate id.
 */
export async function loadGroundednessItems(file: string, mode: 'required' | 'ignored' | 'if-present', columns: GroundednessColumns = {}): Promise<{ items: GroundednessItem[]; sha256: string; encoding: 'utf-8' | 'latin1' }> {
  const table = await readTable(file, 'items');
  const names = { question: columns.question ?? 'question', context: columns.context ?? 'context', answer: columns.answer ?? 'answer' };
  const answers = mode === 'if-present' ? (table.columns.has(names.answer) ? 'required' : 'ignored') : mode;
  const idColumn = columns.id ?? (table.columns.has('id') ? 'id' : undefined);
  const needed = [names.question, names.context, ...(answers === 'required' ? [names.answer] : []), ...(columns.id ? [columns.id] : [])];
  for (const name of needed) {
    if (!table.columns.has(name)) throw new InputError(`${file}: no column "${name}"; the file has ${[...table.columns].map((c) => `"${c}"`).join(', ')}`, { file });
  }
  const items: GroundednessItem[] = [];
  const lineOfId = new Map<string, number>();
  for (const { fields, line } of table.rows) {
    const text = (column: string): string => {
      const value = fields[column];
      if (typeof value !== 'string' || value.trim() === '') throw new InputError(`${file}:${line}: "${column}" is ${typeof value === 'string' ? 'empty' : 'missing or not a string'}`, { file, line });
      return value;
    };
    const id = idColumn === undefined ? `line-${line}` : scalar(fields[idColumn]);
    if (!id) throw new InputError(`${file}:${line}: "${idColumn ?? ''}" is empty or not a string or number; expected the item's id`, { file, line });
    const earlier = lineOfId.get(id);
    if (earlier !== undefined) throw new InputError(`${file}:${line}: duplicate id "${id}" (also on line ${earlier}); ids must be unique`, { file, line });
    lineOfId.set(id, line);
    items.push({ id, question: text(names.question), context: text(names.context), ...(answers === 'required' ? { answer: text(names.answer) } : {}), source: { file, line } });
  }
  return { items, sha256: table.sha256, encoding: table.encoding };
}
