import { stat } from 'node:fs/promises';
import { InputError } from '../../core/index.js';
import type { ArticleColumns, ArticleSet } from './article.js';
import { loadArticleFolder } from './load-folder.js';
import { loadArticleTable } from './load-table.js';

export type { Article, ArticleColumns, ArticleSet } from './article.js';
export { decodeText } from '../decode-text.js';
export { latin1Warning } from './latin1-warning.js';

/**
 * Reads articles from a folder of `.txt` files (sub-folder = category), a `.csv` or a
 * `.jsonl`/`.ndjson` file. Columns apply to CSV/JSONL only.
 * @throws InputError naming the path when it does not exist or is neither a folder nor a known file type.
 */
export async function loadArticles(source: string, columns: ArticleColumns = {}): Promise<ArticleSet> {
  let kind;
  try {
    kind = await stat(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${source}: ${code === 'ENOENT' ? 'no such file or folder' : `cannot read it (${code ?? String(error)})`}; expected a folder of .txt articles, a .csv or a .jsonl file`, { file: source });
  }
  if (kind.isDirectory()) return loadArticleFolder(source);
  if (/\.(csv|jsonl|ndjson)$/i.test(source)) return loadArticleTable(source, columns);
  throw new InputError(`${source}: not a folder, .csv or .jsonl file; expected a folder of .txt articles, a .csv or a .jsonl file`, { file: source });
}
