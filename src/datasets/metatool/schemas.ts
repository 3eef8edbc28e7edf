import type { ZodType, z as Zod } from 'zod';

/**
 * Shapes of the MetaTool JSON files, checked when they are loaded: each a zod schema, built on
 * first use (building the nine cost every MetaTool run's start-up, which reads four of the files)
 * with zod imported then: a run whose files pass their plain checks never loads zod (~100 modules,
 * several MB of a run's memory; docs/benchmarks.md, branch `startmem`),
 * and the words an error message uses for "what was expected". The files every MetaTool run reads
 * also have a plain check (`accepts`) that passes exactly the values their schema passes unchanged
 * — no key of theirs the schema would drop or alter is read —, so a good file is not walked by zod
 * (the 6.6 MB of embeddings are 305,664 numbers); a file it refuses goes through the schema, for
 * the schema's own message.
 */
export interface JsonShape<T> {
  readonly schema: () => Promise<ZodType<T>>;
  readonly expected: string;
  /** True only for a value the schema accepts; the value is then used as it is. */
  readonly accepts?: (value: unknown) => boolean;
}

/** A shape whose schema `build` makes from zod on first use (zod imported then). */
export function shape<T>(build: (z: typeof Zod) => ZodType<T>, expected: string, accepts?: (value: unknown) => boolean): JsonShape<T> {
  let schema: Promise<ZodType<T>> | undefined;
  return { schema: () => (schema ??= import('zod').then(({ z }) => build(z))), expected, ...(accepts ? { accepts } : {}) };
}

/** A JSON object (as zod's object and record schemas take one) whose own keys are all plain: no `__proto__`, which a copy would not keep as a key. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, '__proto__');
const isName = (value: unknown): boolean => typeof value === 'string' && value.length >= 1;
const isStringMap = (value: unknown): boolean => isObject(value) && Object.values(value).every((v) => typeof v === 'string');

export const stringMap = shape((z) => z.record(z.string(), z.string()), 'an object mapping tool names to description strings', isStringMap);

export const pluginInfo = shape(
  (z) => z.array(z.object({ name_for_model: z.string().min(1), description_for_human: z.string() })),
  'a list of plugins {name_for_model, description_for_human}',
  (value) => Array.isArray(value) && value.every((p) => isObject(p) && isName(p['name_for_model']) && typeof p['description_for_human'] === 'string'),
);

export const scenario = shape((z) => z.object({ Tools: z.array(z.string().min(1)).min(1) }), 'an object {"Tools": [tool names]}');

export const multiGolden = shape((z) => z.array(z.object({ query: z.string().min(1), tool: z.tuple([z.string().min(1), z.string().min(1)]) })), 'a list of {query, tool: [two tool names]}');

export const embeddings = shape(
  (z) => z.array(z.object({ tool: z.string().min(1), embedding: z.array(z.number()).min(1) })),
  'a list of {tool, embedding: [numbers]}',
  (value) => Array.isArray(value) && value.every((e) => isObject(e) && isName(e['tool']) && isNumbers(e['embedding'])),
);

// zod's number refuses NaN and the infinities (JSON.parse makes Infinity of 1e999).
function isNumbers(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (const x of value) if (typeof x !== 'number' || !Number.isFinite(x)) return false;
  return true;
}

export const neighbours = shape(
  (z) => z.record(z.string(), z.array(z.string())),
  'an object mapping each tool to its nearest tools (itself first)',
  (value) => isObject(value) && Object.values(value).every((list) => Array.isArray(list) && list.every((t) => typeof t === 'string')),
);

export const task1 = shape(
  (z) =>
    z.array(
      z.object({
        thought_prompt: z.string().min(1),
        label: z.enum(['positive', 'negative']),
        query: z.string().min(1),
        tool: z.string().optional(),
      }),
    ),
  'a list of {thought_prompt, label: "positive"|"negative", query, tool?}',
);

export const subtask3 = shape(
  (z) => z.array(z.object({ action_prompt: z.string().min(1), thought_prompt: z.string(), tool: z.string().min(1), query: z.string().min(1), index: z.number() })),
  'a list of {action_prompt, thought_prompt, tool, query, index}',
);

export const subtask4 = shape(
  (z) => z.array(z.object({ action_prompt: z.string().min(1), thought_prompt: z.string(), tool: z.tuple([z.string().min(1), z.string().min(1)]), query: z.string().min(1) })),
  'a list of {action_prompt, thought_prompt, tool: [two tool names], query}',
);
