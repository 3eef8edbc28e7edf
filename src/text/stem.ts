/**
 * Harman's "S" stemmer (D. Harman, "How effective is suffixing?", JASIS 1991): folds English
 * plurals onto the singular and nothing else, so "flights" matches "flight" and "queries" matches
 * "query", without the surprises of a full Porter stemmer. Rules, first match wins:
 *   -ies → -y   (not after e or a: "eies", "aies" are left alone)
 *   -es  → -e   (not after a, e or o: "aes", "ees", "oes" are left alone)
 *   -s   → ''   (not after u or s: "us", "ss" are left alone)
 * Expects a lowercase word; words of three letters or fewer are returned unchanged so that
 * "is", "gas", "bus" survive.
 */
export function sStem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !word.endsWith('aes') && !word.endsWith('ees') && !word.endsWith('oes')) return word.slice(0, -1);
  if (word.endsWith('s') && !word.endsWith('us') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}
