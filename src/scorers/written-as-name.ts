/** A span of an answer text: `text.slice(start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

// Marks that set a name off from prose when they enclose it directly: quotes, backticks, markdown
// emphasis, guillemets. (`_` is a word character, so `_search_` never matches a whole word.)
const CLOSING_MARK: Readonly<Record<string, string>> = { '"': '"', "'": "'", '`': '`', '*': '*', '\u201C': '\u201D', '\u2018': '\u2019', '\u00AB': '\u00BB' };

/** Rule (b): the span is directly enclosed by a pair of marks: `"search"`, `` `search` ``, `**Now**`, `“local”`. */
export function isSetOff(text: string, span: Span): boolean {
  const before = text.charAt(span.start - 1);
  return before !== '' && CLOSING_MARK[before] === text.charAt(span.end);
}

// What may precede the names on a line that holds only names: a list bullet or number, then a label.
// "Tool(s):" as a template prints it counts as a label too.
const LINE_LEAD = /^\s*(?:[-*•>#]+\s*|\d+[.)]\s*)?(?:(?:final\s+)?answer|(?:(?:selected|chosen|recommended)\s+)?tools?(?:\(s\))?(?:\s+names?(?:\(s\))?)?|choice)?\s*[:\-–—]?/iu;
// Between and around the names: punctuation, symbols, spaces, and the joining words "and" / "or".
const NAME_SEPARATORS = /^(?:[\s\p{P}\p{S}]|\b(?:and|or)\b)*$/iu;

/**
 * Rule (a): the line of the answer that holds the span holds nothing but names (`spans`, the
 * names found in the whole answer), separators (`,` `;` `/` `&` `and` `or`, punctuation, quotes,
 * markdown) and, first, an optional bullet and label (`Answer:`, `Tool:`, `Selected tools:`).
 * "search", "- Now", "Answer: local." and "search, Now" qualify; "I would search the web" does not.
 */
export function isOnNameOnlyLine(text: string, span: Span, spans: readonly Span[]): boolean {
  const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
  const newline = text.indexOf('\n', span.end);
  const lineEnd = newline === -1 ? text.length : newline;
  let line = '';
  let cursor = lineStart;
  for (const other of [...spans].filter((s) => s.start >= lineStart && s.end <= lineEnd).sort((a, b) => a.start - b.start)) {
    if (other.start < cursor) continue;
    line += `${text.slice(cursor, other.start)} `;
    cursor = other.end;
  }
  line += text.slice(cursor, lineEnd);
  return NAME_SEPARATORS.test(line.replace(LINE_LEAD, ''));
}

// Skipped when looking back for the start of a sentence: spaces and opening marks.
const OPENING = new Set([' ', '\t', '"', "'", '`', '*', '(', '[', '\u201C', '\u2018', '\u00AB']);

/**
 * Rule (c): a name the list spells with a capital (`Now`, `Chess`), written exactly so, and not at
 * the start of a sentence (the text's start, a line's start, or after `.` `!` `?`): a capitalised
 * word in mid-sentence is a proper name ("I would use Now for this"); at a sentence's start it is
 * just capitalised prose ("Now, the best tool is …").
 */
export function isCapitalisedMidSentence(text: string, span: Span, listSpelling: string): boolean {
  const first = listSpelling.charAt(0);
  if (first === first.toLowerCase() || text.slice(span.start, span.end) !== listSpelling) return false;
  let i = span.start - 1;
  while (i >= 0 && OPENING.has(text.charAt(i))) i -= 1;
  return i >= 0 && !'\n\r.!?'.includes(text.charAt(i));
}

/** Whether a name that is also an ordinary word is written, at this span, as a name: rule (a), (b) or (c). */
export function isWrittenAsName(text: string, span: Span, listSpelling: string, spans: readonly Span[]): boolean {
  return isSetOff(text, span) || isOnNameOnlyLine(text, span, spans) || isCapitalisedMidSentence(text, span, listSpelling);
}

// What puts a name in a choosing position when it comes right before it (spaces, opening marks and
// an article aside): a verb of choosing ("I would use", "I recommend", "pick"), "the best choice
// is" and its kin, or a "Tool:" label in mid-line.
const CHOOSING_LEAD =
  /(?:\b(?:choose|chose|chosen|choosing|pick|picked|picking|use|used|using|select|selected|selecting|recommend|recommended|recommending)|\b(?:best|right|correct|most suitable)\s+(?:choice|option|tool|fit)\s+(?:is|would be|here is)|\btools?\s*:)(?:\s+(?:the|a|an))?[\s"'`*(\u201C\u2018\u00AB]*$/i;
// What may follow a name in a choosing position: the clause ends, or goes on to say what for.
// "I would use search engines" or "use local time" goes on with a noun: the word is prose there.
const CHOOSING_TAIL = /^[\s"'`*)\u201D\u2019\u00BB]*(?:$|[.,;:!?\n]|(?:to|for|because|since|as|here|in|on|which|that|tool|plugin|and|or|with|instead)\b)/i;

/**
 * Rule (d), for a shown candidate only: the name is in a choosing position — right after a verb of
 * choosing, "the best choice is" or a "Tool:" label, and followed by the end of the clause or by
 * what it is for ("The best choice is dart.", "I would use calculator to search for this."). A
 * candidate's own name there is the answer choosing it; elsewhere the word stays prose ("I would
 * use ABCmouse to search for this": "search" follows "to", not a choosing verb).
 */
export function isInChoosingPosition(text: string, span: Span): boolean {
  return CHOOSING_LEAD.test(text.slice(Math.max(0, span.start - 60), span.start)) && CHOOSING_TAIL.test(text.slice(span.end, span.end + 20));
}
