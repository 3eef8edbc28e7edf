import { sStem } from './stem.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';

export interface TokenizeOptions {
  /** Words to drop after lowercasing; `false` keeps every word. Default: `ENGLISH_STOP_WORDS`. */
  readonly stopWords?: ReadonlySet<string> | false;
  /** Fold plurals with the S-stemmer (`sStem`). Default: false. */
  readonly stem?: boolean;
}

/**
 * Splits text into lowercase terms `[a-z0-9]+`. Accents are removed first (NFKD, combining marks
 * dropped) so that "café" gives "cafe" rather than "caf"; any other character separates terms.
 * Stop words are checked before stemming, against the word as written.
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const stopWords = options.stopWords === undefined ? ENGLISH_STOP_WORDS : options.stopWords;
  const plain = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  const terms: string[] = [];
  for (const match of plain.matchAll(/[a-z0-9]+/g)) {
    const word = match[0];
    if (stopWords && stopWords.has(word)) continue;
    terms.push(options.stem ? sStem(word) : word);
  }
  return terms;
}

/**
 * Splits an identifier into its words: at `_`, `-`, spaces and other non-alphanumerics, at a
 * lower-to-upper case change ("SummarizeAnything" → Summarize, Anything) and at the end of an
 * upper-case run followed by a capitalized word ("ChatOCR" → Chat, OCR; "XMLParser" → XML,
 * Parser). Digits stay attached to the letters beside them. Case is kept.
 */
export function splitIdentifier(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
}
