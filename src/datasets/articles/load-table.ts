import { InputError } from '../../core/index.js';
import { readTable, scalar } from '../table/read-table.js';
import type { Article, ArticleColumns, ArticleSet } from './article.js';

/**
 * Reads articles from a CSV file (a header row names the columns) or a JSONL file (one JSON object
 * a line), choosing by the extension (`.csv`, `.jsonl`/`.ndjson`). See {@link ArticleColumns} for
 * the defaults. Every row is checked before any is returned.
 * @throws InputError naming the file and line: a missing column, a row whose text is empty or not
 * a string, a JSONL line that is not an object, a duplicate id; or an empty file.
 */
export async function loadArticleTable(file: string, columns: ArticleColumns = {}): Promise<ArticleSet> {
  const { rows, encoding, sha256, columns: present } = await readTable(file, 'articles');
  const textColumn = columns.text ?? 'text';
  const idColumn = columns.id ?? (present.has('id') ? 'id' : undefined);
  const categoryColumn = columns.category ?? (present.has('category') ? 'category' : undefined);
  for (const [flag, name] of [['--text-column', textColumn], ['--id-column', columns.id], ['--category-column', columns.category]] as const) {
    if (name !== undefined && !present.has(name)) {
      throw new InputError(`${file}: no column "${name}" (${flag}); the file has ${[...present].map((c) => `"${c}"`).join(', ') || 'no columns'}`, { file });
    }
  }
  const articles: Article[] = [];
  const lineOfId = new Map<string, number>();
  for (const { fields, line } of rows) {
    const where = `${file}:${line}`;
    const body = fields[textColumn];
    if (typeof body !== 'string' || body.trim() === '') throw new InputError(`${where}: "${textColumn}" is ${typeof body === 'string' ? 'empty' : 'missing or not a string'}; expected the article text`, { file, line });
    const id = idColumn === undefined ? `line-${line}` : scalar(fields[idColumn]);
    if (id === undefined || id === '') throw new InputError(`${where}: "${idColumn ?? ''}" is empty or not a string or number; expected the article's id`, { file, line });
    const earlier = lineOfId.get(id);
    if (earlier !== undefined) throw new InputError(`${where}: duplicate id "${id}" (also on line ${earlier}); ids must be unique`, { file, line });
    lineOfId.set(id, line);
    const category = categoryColumn === undefined ? undefined : scalar(fields[categoryColumn]);
    articles.push({ id, text: body, ...(category ? { category } : {}), encoding, source: { file, line } });
  }
  return { articles, sha256, latin1: encoding === 'latin1' ? articles.map((a) => a.id) : [] };
}


