import { tokenize } from './tokenize.js';

export interface Bm25Options {
  /** Term-frequency saturation. Default 1.2. */
  readonly k1?: number;
  /** Length normalization, 0 (none) to 1 (full). Default 0.75. */
  readonly b?: number;
  /** Text → terms, used for documents and queries alike. Default: `tokenize` with stop words and the S-stemmer. */
  readonly tokenize?: (text: string) => readonly string[];
}

const defaultTokenize = (text: string): string[] => tokenize(text, { stem: true });

/**
 * Okapi BM25 over a fixed, in-memory list of documents.
 *
 *   score(d, q) = Σ over distinct terms t of q:  idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·|d|/avgdl))
 *   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *
 * tf = occurrences of t in d, |d| = terms in d, avgdl = mean |d|, N = documents, n(t) =
 * documents containing t. The idf is the Lucene form, which stays positive: the classic
 * ln((N − n + 0.5)/(n + 0.5)) goes negative for a term in more than half the documents, and the
 * corpora here are tiny (the handful of candidates of one question). A term repeated in the query
 * counts once. Pure: the index never changes after construction.
 */
export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  private readonly tokenizeText: (text: string) => readonly string[];
  private readonly termCounts: readonly ReadonlyMap<string, number>[];
  private readonly lengths: readonly number[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(documents: readonly string[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.tokenizeText = options.tokenize ?? defaultTokenize;
    const counts: Map<string, number>[] = [];
    const lengths: number[] = [];
    for (const document of documents) {
      const terms = this.tokenizeText(document);
      const tf = new Map<string, number>();
      for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
      for (const term of tf.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      counts.push(tf);
      lengths.push(terms.length);
    }
    this.termCounts = counts;
    this.lengths = lengths;
    this.averageLength = lengths.length === 0 ? 0 : lengths.reduce((sum, n) => sum + n, 0) / lengths.length;
  }

  /** Number of documents in the index. */
  get size(): number {
    return this.lengths.length;
  }

  /** Inverse document frequency of one (already tokenized) term; 0 for a term in no document. */
  idf(term: string): number {
    const n = this.documentFrequency.get(term) ?? 0;
    if (n === 0) return 0;
    const total = this.lengths.length;
    return Math.log(1 + (total - n + 0.5) / (n + 0.5));
  }

  /** BM25 score of every document for `query`, in document order (0 when no term is shared). */
  scores(query: string): number[] {
    const queryTerms = [...new Set(this.tokenizeText(query))];
    return this.termCounts.map((tf, index) => {
      // All documents empty: avgdl is 0 and no term can match, so every score is 0.
      if (this.averageLength === 0) return 0;
      const lengthFactor = 1 - this.b + (this.b * (this.lengths[index] ?? 0)) / this.averageLength;
      let score = 0;
      for (const term of queryTerms) {
        const count = tf.get(term) ?? 0;
        if (count === 0) continue;
        score += (this.idf(term) * count * (this.k1 + 1)) / (count + this.k1 * lengthFactor);
      }
      return score;
    });
  }
}
