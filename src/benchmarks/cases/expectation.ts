/**
 * What a case expects of an answer. Each kind is one key of an `expect:` item in a case file
 * (`- contains: 30 days`); the file's reader turns them into these, paths resolved and checked.
 */
export type Expectation =
  | { readonly kind: 'contains'; readonly text: string }
  | { readonly kind: 'not-contains'; readonly text: string }
  | { readonly kind: 'regex'; readonly pattern: string; readonly flags: string }
  /** `schema`: the path as written in the case file (relative to it), or `inline` for a schema written in place. */
  | { readonly kind: 'json-schema'; readonly schema: string }
  | { readonly kind: 'tool-call'; readonly name: string; readonly arguments: Readonly<Record<string, unknown>> }
  | { readonly kind: 'rubric'; readonly criterion: string };

export type ExpectationKind = Expectation['kind'];

/** Every kind, in the order the docs and error messages list them. */
export const EXPECTATION_KINDS: readonly ExpectationKind[] = ['contains', 'not-contains', 'regex', 'json-schema', 'tool-call', 'rubric'];

/** How one expectation went: pass, fail, or no verdict (a rubric the judge could not decide). */
export type Outcome = 'pass' | 'fail' | 'no-verdict';

/** One expectation's outcome as stored in the score (`metadata.expectations`): what was expected, how it went, why. */
export interface ExpectationResult {
  readonly kind: ExpectationKind;
  /** The expectation in one line, as the case file says it (`contains "30 days"`). */
  readonly expected: string;
  readonly outcome: Outcome;
  readonly reason: string;
  /** A rubric's judgment: one vote per repeat and the judge's replies (its reasoning). */
  readonly judge?: { readonly votes: readonly (boolean | null)[]; readonly agreement: number; readonly responses: readonly string[] };
}

const MAX_SHOWN = 60;
const shown = (text: string): string => JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text);

/** The expectation in one line, for reports and explanations. */
export function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case 'contains':
    case 'not-contains':
      return `${e.kind} ${shown(e.text)}`;
    case 'regex':
      return `regex /${e.pattern}/${e.flags}`;
    case 'json-schema':
      return `json-schema ${e.schema}`;
    case 'tool-call':
      return `tool-call ${e.name}(${JSON.stringify(e.arguments)})`;
    case 'rubric':
      return `rubric ${shown(e.criterion)}`;
  }
}
