/**
 * The source text of each top-level member value of a JSON object text, e.g.
 * `{"a": 3.0, "b": "x"}` → `a → "3.0"`, `b → "\"x\""`. JSON parsing forgets whether a number
 * was written `3` or `3.0`; the error taxonomy needs it to tell an integer from a float the way
 * the FunctionChat rubric does ("an integer parameter created as a floating-point type is wrong").
 *
 * Returns undefined when the text is not a JSON object (callers parse it with `JSON.parse`
 * first; this scanner only has to be right on valid JSON). A repeated key keeps its last
 * value, as `JSON.parse` does.
 */
export function topLevelLiterals(text: string): Map<string, string> | undefined {
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return undefined;
  const out = new Map<string, string>();
  i = skipSpace(text, i + 1);
  if (text[i] === '}') return out;
  for (;;) {
    if (text[i] !== '"') return undefined;
    const keyEnd = stringEnd(text, i);
    if (keyEnd === undefined) return undefined;
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') return undefined;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    if (end === undefined) return undefined;
    out.set(key, text.slice(start, end));
    i = skipSpace(text, end);
    if (text[i] === ',') {
      i = skipSpace(text, i + 1);
      continue;
    }
    return text[i] === '}' ? out : undefined;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  return i;
}

/** Index just after the string literal that starts at `i` (a `"`). */
function stringEnd(text: string, i: number): number | undefined {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return undefined;
}

/** Index just after the JSON value that starts at `i`. */
function valueEnd(text: string, i: number): number | undefined {
  const first = text[i];
  if (first === '"') return stringEnd(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const ch = text[j];
      if (ch === '"') {
        const end = stringEnd(text, j);
        if (end === undefined) return undefined;
        j = end - 1;
      } else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return undefined;
  }
  // number, true, false, null: up to the next delimiter
  let j = i;
  while (j < text.length && !',}] \t\n\r'.includes(text[j] as string)) j++;
  return j > i ? j : undefined;
}
