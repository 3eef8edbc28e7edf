/**
 * The result of scoring one output. `value` is tri-state for pass/fail scorers:
 * `true` pass, `false` fail, `null` **no verdict** (unparseable, ambiguous: needs a human);
 * numeric scorers put a number. Metrics must treat `null` as its own count, never as a fail.
 */
export interface Score {
  readonly value: boolean | number | null;
  /** The parsed answer the verdict was computed from (e.g. the selected tool names). */
  readonly answer?: unknown;
  /** Why the scorer decided as it did; always set for no-verdict. */
  readonly explanation?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export const pass = (answer?: unknown, explanation?: string): Score => ({ value: true, answer, ...(explanation ? { explanation } : {}) });
export const fail = (answer?: unknown, explanation?: string): Score => ({ value: false, answer, ...(explanation ? { explanation } : {}) });
export const noVerdict = (explanation: string, answer?: unknown): Score => ({ value: null, answer, explanation });

/** Neither a pass, a fail nor a number: counted apart, never silently a pass or a fail. */
export const isNoVerdict = (score: Score): boolean => score.value === null;
