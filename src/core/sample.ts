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

/** Throws when two samples share an id: results, calls and resume all find a sample by its id. */
export function assertUniqueSampleIds(samples: readonly Sample[], where: string): void {
  const seen = new Set<string>();
  for (const sample of samples) {
    if (seen.has(sample.id)) throw new Error(`${where}: sample id "${sample.id}" occurs twice; sample ids must be unique`);
    seen.add(sample.id);
  }
}
