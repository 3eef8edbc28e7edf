import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { InputError, sha256 } from '../../core/index.js';
import type { Article, ArticleSet } from './article.js';
import { readTextFile } from '../read-text-file.js';

/** Text files are read; anything else in the folder (hidden files, other types) is not an article. */
const TEXT_FILE = /\.txt$/i;
/** A folder's own notes, not an article (the BBC set ships `README.TXT` at its top). */
const README = /(^|\/)readme\.txt$/i;

/**
 * Reads every `.txt` file under a folder (but `README.txt`, any case) as one article: id = the path relative to the folder
 * (with `/`), category = the first sub-folder (none for files at the top). Files are read in
 * sorted order, so ids and the folder's checksum do not depend on the file system's order.
 * @throws InputError naming the file for an empty article or an unreadable file, and the folder when it holds no `.txt` file.
 */
export async function loadArticleFolder(folder: string): Promise<ArticleSet> {
  const relative = (await listFiles(folder)).filter((file) => TEXT_FILE.test(file) && !README.test(file)).sort();
  if (relative.length === 0) throw new InputError(`${folder}: no .txt articles in this folder (expected files such as ${path.join(folder, 'business', '001.txt')})`, { file: folder });
  const articles: Article[] = [];
  const sums: string[] = [];
  for (const id of relative) {
    const file = path.join(folder, ...id.split('/'));
    const { bytes, text, encoding } = await readTextFile(file);
    if (text.trim() === '') throw new InputError(`${file}: the article is empty; expected its text`, { file });
    const parts = id.split('/');
    articles.push({ id, text, ...(parts.length > 1 ? { category: parts[0] as string } : {}), encoding, source: { file } });
    sums.push(`${id}\u0000${sha256(bytes)}`);
  }
  return { articles, sha256: sha256(sums.join('\n')), latin1: articles.filter((a) => a.encoding === 'latin1').map((a) => a.id) };
}

/** Files under a folder, as `/`-separated paths relative to it; hidden entries are skipped. */
async function listFiles(folder: string, prefix = ''): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(folder, ...prefix.split('/').filter(Boolean)), { withFileTypes: true });
  } catch (error) {
    throw new InputError(`${folder}: cannot read the folder (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file: folder });
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await listFiles(folder, name)));
    else if (entry.isFile()) files.push(name);
  }
  return files;
}
