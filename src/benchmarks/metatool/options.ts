import { InputError } from '../../core/index.js';
import type { TaskOptions } from '../task.js';

/** Task options with defaults applied and values checked. */
export interface MetaToolOptions {
  readonly perTool: number;
  readonly shots: 0 | 5;
  /** Whether `shots` was given (upstream replays reject an explicit 0). */
  readonly shotsGiven: boolean;
  readonly prompts: 'assay' | 'upstream';
  readonly parser: 'strict' | 'paper';
  readonly limit: number | undefined;
}

/** Queries per tool when `perTool` is not given (upstream's `sample_number=5`). */
export const DEFAULT_PER_TOOL = 5;

/**
 * Applies defaults and checks the values a CLI or config may have passed unchecked.
 * @throws InputError naming the task and the bad option.
 */
export function resolveOptions(taskName: string, options: TaskOptions): MetaToolOptions {
  const { perTool = DEFAULT_PER_TOOL, shots, prompts = 'assay', parser = 'strict', limit } = options;
  if (!Number.isInteger(perTool) || perTool < 1) throw new InputError(`${taskName}: perTool must be a positive integer, got ${String(perTool)}`);
  if (shots !== undefined && shots !== 0 && shots !== 5) throw new InputError(`${taskName}: shots must be 0 or 5, got ${String(shots)}`);
  if (prompts !== 'assay' && prompts !== 'upstream') throw new InputError(`${taskName}: prompts must be "assay" or "upstream", got ${String(prompts)}`);
  if (parser !== 'strict' && parser !== 'paper') throw new InputError(`${taskName}: parser must be "strict" or "paper", got ${String(parser)}`);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new InputError(`${taskName}: limit must be a non-negative integer, got ${String(limit)}`);
  return { perTool, shots: shots ?? 0, shotsGiven: shots !== undefined, prompts, parser, limit };
}

/** The first `limit` items (all when no limit). */
export function applyLimit<T>(items: readonly T[], limit: number | undefined): readonly T[] {
  return limit === undefined ? items : items.slice(0, limit);
}
