/**
 * Python's `repr()` of a `str` and of a `list` of `str`, reproduced exactly.
 *
 * Why: upstream MetaTool writes a tool's description into the prompt with an f-string, and for
 * tools missing from `big_tool_des.json` the value is a Python list, so the prompt shows
 * `['Scrape content from webpages by providing a URL.']` — quotes, escapes and all. To rebuild
 * those prompts byte for byte we must quote and escape the way CPython does.
 */

/**
 * Characters CPython's `str.isprintable()` rejects: categories Cc, Cf, Cs, Co, Cn (other) and
 * Zl, Zp, Zs (separators) — except the ASCII space, which is printable.
 * (JS and CPython may ship different Unicode versions; only unassigned code points could differ.)
 */
const NON_PRINTABLE = /^[\p{C}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hex(codePoint: number, digits: number): string {
  return codePoint.toString(16).padStart(digits, '0');
}

/** Escapes one code point the way CPython's `unicode_repr` does (quote handled by the caller). */
function escapeCodePoint(char: string, quote: string): string {
  switch (char) {
    case '\\':
      return '\\\\';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    default:
      break;
  }
  if (char === quote) return `\\${quote}`;
  const codePoint = char.codePointAt(0) ?? 0;
  if (char !== ' ' && NON_PRINTABLE.test(char)) {
    if (codePoint <= 0xff) return `\\x${hex(codePoint, 2)}`;
    if (codePoint <= 0xffff) return `\\u${hex(codePoint, 4)}`;
    return `\\U${hex(codePoint, 8)}`;
  }
  return char;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * `repr(s)` for a Python `str`: single quotes, unless the text contains `'` and no `"`, in which
 * case double quotes; backslash, tab, newline, carriage return and non-printable characters are
 * escaped; printable non-ASCII text is kept as is.
 */
export function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  // Printable ASCII without a backslash (most descriptions): only the quote is escaped.
  if (PRINTABLE_ASCII.test(text) && !text.includes('\\')) return `${quote}${quote === "'" ? text.replaceAll("'", "\\'") : text}${quote}`;
  let body = '';
  // for…of walks code points, so astral characters (emoji) stay whole and lone surrogates are seen.
  for (const char of text) body += escapeCodePoint(char, quote);
  return `${quote}${body}${quote}`;
}

/** `repr(items)` (equivalently `str(items)`) for a Python `list` of `str`: `['a', "b's"]`. */
export function pythonStrListRepr(items: readonly string[]): string {
  return `[${items.map(pythonStrRepr).join(', ')}]`;
}
