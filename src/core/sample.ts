import type { ReferenceHints } from './generate.js';
import type { Message } from './messages.js';
import type { ToolSpec } from './tools.js';

/** One item of a benchmark: immutable, with an id that is stable for the same data, options and seed. */
export interface Sample<Target = unknown, Meta extends Record<string, unknown> = Record<string, unknown>> {
  readonly id: string;
  readonly input: readonly Message[];
  readonly tools?: readonly ToolSpec[];
  readonly target: Target;
  readonly metadata: Meta;
  readonly hints?: ReferenceHints;
}
