/**
 * The tags of a Jinja template (`{{ … }}`, `{% … %}`, `{# … #}`) with the line each opens on.
 * `@huggingface/jinja` reports syntax errors without a position; this scan is how a template error
 * still names its line. It follows the lexer's rules closely enough to find tags: text runs to the
 * next `{{`, `{%` or `{#`; inside a tag, quoted strings and `{…}` literals are skipped.
 */

export interface TemplateTag {
  readonly kind: 'expression' | 'statement' | 'comment';
  /** 1-based line of the tag's opening braces. */
  readonly line: number;
  /** For a statement, its first word (`if`, `endfor`, `set`); otherwise empty. */
  readonly keyword: string;
  /** The tag's source text, braces included. */
  readonly source: string;
}

/** A tag opened and never closed, found while scanning. */
export interface UnclosedTag {
  readonly line: number;
  readonly opener: string;
}

const CLOSERS = { '{{': '}}', '{%': '%}', '{#': '#}' } as const;

/** Scans `source` into its tags, or returns the first tag that is never closed. */
export function scanTags(source: string): { readonly tags: readonly TemplateTag[] } | { readonly unclosed: UnclosedTag } {
  const tags: TemplateTag[] = [];
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const lineAt = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  let at = 0;
  for (;;) {
    const start = nextOpener(source, at);
    if (start === -1) return { tags };
    const opener = source.slice(start, start + 2) as keyof typeof CLOSERS;
    const end = opener === '{#' ? source.indexOf('#}', start + 2) : closeOfTag(source, start + 2, CLOSERS[opener]);
    if (end === -1) return { unclosed: { line: lineAt(start), opener } };
    const text = source.slice(start, end + 2);
    const kind = opener === '{{' ? 'expression' : opener === '{%' ? 'statement' : 'comment';
    const keyword = kind === 'statement' ? (/^\{%-?\s*([A-Za-z_]\w*)/.exec(text)?.[1] ?? '') : '';
    // The library drops `{% generation %}` tags before lexing; so does this list, to stay aligned with its tokens.
    if (keyword !== 'generation' && keyword !== 'endgeneration') tags.push({ kind, line: lineAt(start), keyword, source: text });
    at = end + 2;
  }
}

function nextOpener(source: string, from: number): number {
  for (let i = from; i < source.length - 1; i++) {
    if (source[i] === '{' && (source[i + 1] === '{' || source[i + 1] === '%' || source[i + 1] === '#')) return i;
  }
  return -1;
}

/** Index of the closer (`}}` or `%}`) ending a tag whose body starts at `from`, skipping strings and `{…}` literals; -1 if none. */
function closeOfTag(source: string, from: number, closer: '}}' | '%}'): number {
  let depth = 0;
  for (let i = from; i < source.length; i++) {
    const char = source[i];
    if (char === '"' || char === "'") {
      i = endOfString(source, i);
      if (i === -1) return -1;
    } else if (depth === 0 && source.startsWith(closer, i)) {
      return i;
    } else if (char === '{') {
      depth += 1;
    } else if (char === '}' && depth > 0) {
      depth -= 1;
    }
  }
  return -1;
}

function endOfString(source: string, open: number): number {
  const quote = source[open];
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === '\\') i += 1;
    else if (source[i] === quote) return i;
  }
  return -1;
}

/** Statements that open a block closed by `end<keyword>`. A `set` opens one only without `=` (`{% set x %}…{% endset %}`). */
const BLOCK_KEYWORDS = new Set(['if', 'for', 'macro', 'call', 'filter', 'set']);

/** The innermost block left open at the end of the template, if any (for "never closed" messages). */
export function innermostUnclosedBlock(tags: readonly TemplateTag[]): TemplateTag | undefined {
  const open: TemplateTag[] = [];
  for (const tag of tags) {
    if (tag.kind !== 'statement') continue;
    if (BLOCK_KEYWORDS.has(tag.keyword) && !(tag.keyword === 'set' && /=/.test(tag.source.replace(/==|!=|<=|>=/g, '')))) open.push(tag);
    else if (tag.keyword.startsWith('end') && open.at(-1)?.keyword === tag.keyword.slice(3)) open.pop();
  }
  return open.at(-1);
}
