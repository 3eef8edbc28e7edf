import type { z } from 'zod';
import { InputError } from '../core/index.js';

/** The flag of an option key a task declares: `textColumn` → `--text-column`. */
export const flagOf = (key: string): string => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * A task's own options (`TaskOptions.task`), checked with its zod schema: the required option
 * missing is one line saying what to give; any other problem names the flag and what is wrong.
 * @throws InputError
 */
export function parseOwnOptions<S extends z.ZodType>(
  taskName: string,
  schema: S,
  given: Readonly<Record<string, string | number>> | undefined,
  required: { readonly key: string; readonly expected: string },
): z.infer<S> {
  if (given?.[required.key] === undefined) throw new InputError(`${taskName} needs ${flagOf(required.key)} ${required.expected}`);
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    throw new InputError(`${taskName}: ${parsed.error.issues.map((issue) => `${flagOf(String(issue.path[0] ?? ''))} ${issue.message}`).join('; ')}`);
  }
  return parsed.data as z.infer<S>;
}
