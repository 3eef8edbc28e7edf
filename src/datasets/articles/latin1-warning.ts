import type { ArticleSet } from './article.js';

/** How many files a warning names before it says "and N more". */
const NAMED = 3;

/**
 * The one line that tells the user some articles were not valid UTF-8 and were read as Latin-1
 * (each such sample records `metadata.encoding: latin1`, but nobody reads metadata before the
 * numbers): how many, and the first few files, so a file in another encoding (UTF-16, Windows-1252
 * punctuation) is found before a judge grades garbled text. Undefined when every article was UTF-8.
 */
export function latin1Warning(set: ArticleSet, source: string): string | undefined {
  const read = set.articles.filter((a) => a.encoding === 'latin1');
  if (read.length === 0) return undefined;
  // A CSV or JSONL source is one file: all its articles share it.
  const files = [...new Set(read.map((a) => a.source.file))];
  const named = files.slice(0, NAMED).join(', ');
  const more = files.length > NAMED ? `, and ${files.length - NAMED} more` : '';
  return (
    `${read.length} of ${set.articles.length} article(s) in ${source} are not valid UTF-8 and were read as Latin-1: ${named}${more} ` +
    '(recorded as metadata.encoding); if that is not their encoding, convert them to UTF-8'
  );
}
