/** One article to summarize (or any text to judge), as read from a folder, a CSV or a JSONL file. */
export interface Article {
  /** Stable id: the path relative to the folder (`sport/199.txt`), or the id column's value. */
  readonly id: string;
  readonly text: string;
  /** The sub-folder name, or the category column's value; absent when the source has none. */
  readonly category?: string;
  /** How the bytes were decoded: UTF-8, or Latin-1 when they are not valid UTF-8 (recorded, not hidden). */
  readonly encoding: 'utf-8' | 'latin1';
  /** Where it came from, for messages: the file, and the line for CSV/JSONL rows. */
  readonly source: { readonly file: string; readonly line?: number };
}

/** Articles with the identity a run records: one sha256 over the whole source. */
export interface ArticleSet {
  readonly articles: readonly Article[];
  /** sha256 of the source: of the file, or, for a folder, of its files' relative paths and sha256 sums in order. */
  readonly sha256: string;
  /** Ids of the articles read as Latin-1 (not valid UTF-8). */
  readonly latin1: readonly string[];
}

/** Column names to read from a CSV or JSONL source. */
export interface ArticleColumns {
  /** The article text (default `text`). */
  readonly text?: string;
  /** Stable ids (default `id` when the source has it, else the line number). */
  readonly id?: string;
  /** Category (default `category` when the source has it, else none). */
  readonly category?: string;
}
