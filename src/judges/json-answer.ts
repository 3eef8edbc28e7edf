import type { z } from 'zod';

/** A judge's structured answer read strictly: the value, or null with why (to re-ask, then no verdict). */
export type JsonAnswer<T> = { readonly value: T; readonly reason?: undefined } | { readonly value: null; readonly reason: string };

// A whole answer wrapped in one markdown code fence (```json … ``` or ``` … ```), which some
// servers add even under structured output.
const WHOLE_FENCE = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/i;

/** A trimmed answer without the one code fence around all of it, if it has one (text outside a fence is not JSON). */
export const unfenced = (trimmed: string): string => WHOLE_FENCE.exec(trimmed)?.[1] ?? trimmed;

/** A zod failure as one line: each problem with its path (`verdicts.0.verdict: Invalid option…`). */
export const schemaProblems = (error: z.ZodError): string =>
  error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
// Fenced blocks anywhere in the answer.
const ANY_FENCE = /```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/gi;

/**
 * Reads a judge's JSON answer against a schema, strictly. Where the provider has structured
 * output the answer is the object itself; elsewhere the prompt asks for one JSON object, and a
 * judge may still wrap it. Accepted, in this order:
 * 1. the whole answer is the object (or in one code fence);
 * 2. exactly one fenced block in the answer (prose around it is ignored);
 * 3. exactly one top-level `{…}` object that parses, anywhere in the answer.
 * Two candidates (two objects, two fences) are ambiguous and refused: which one the judge meant
 * is a guess. The object must then match the schema exactly — a zod strict object: a missing,
 * extra or mistyped key is refused with the path and the problem. Never throws on judge text.
 */
export function parseJsonAnswer<S extends z.ZodType>(text: string, schema: S): JsonAnswer<z.infer<S>> {
  const candidate = jsonCandidate(text.trim());
  if (candidate.value === null) return { value: null, reason: candidate.reason ?? 'no JSON value' };
  const parsed = schema.safeParse(candidate.value);
  if (!parsed.success) {
    return { value: null, reason: `judge answer does not match the expected shape: ${schemaProblems(parsed.error)}` };
  }
  return { value: parsed.data as z.infer<S> };
}

function jsonCandidate(trimmed: string): JsonAnswer<unknown> {
  if (trimmed === '') return { value: null, reason: 'empty judge answer' };
  const whole = tryParse(unfenced(trimmed));
  if (whole !== undefined) return { value: whole };
  const fences = [...trimmed.matchAll(ANY_FENCE)].map((m) => m[1] ?? '');
  if (fences.length > 1) return { value: null, reason: `judge answer holds ${fences.length} code blocks; expected one JSON object` };
  if (fences.length === 1) {
    const fenced = tryParse(fences[0] as string);
    return fenced === undefined ? { value: null, reason: 'the code block in the judge answer is not JSON' } : { value: fenced };
  }
  const objects = topLevelObjects(trimmed)
    .map(tryParse)
    .filter((v) => v !== undefined);
  if (objects.length === 1) return { value: objects[0] };
  return { value: null, reason: objects.length === 0 ? 'judge answer holds no JSON object' : `judge answer holds ${objects.length} JSON objects; expected one` };
}

/** The parsed value, or undefined when the text is not JSON. */
function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The balanced `{…}` spans of a text that are not inside another one, skipping braces inside
 * JSON strings (with their escapes). Quotes outside a span do not count as strings: prose may
 * hold an apostrophe or a lone quote.
 */
function topLevelObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"' && depth > 0) inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}
