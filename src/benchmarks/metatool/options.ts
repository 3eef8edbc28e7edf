import { InputError } from '../../core/index.js';
import type { TaskOptions } from '../task.js';
import { DEFAULT_PER_TOOL } from './option-specs.js';

/**
 * A MetaTool run's options as recorded: MetaTool's own (declared in `option-specs.ts`) ride at
 * the top level beside the generic ones, where runs recorded them before tasks declared options.
 */
export interface MetaToolRunOptions extends TaskOptions {
  /** Queries drawn per tool (similar / scenario / reliability). */
  readonly perTool?: number;
  /** Number of in-context examples: 0 or 5. */
  readonly shots?: 0 | 5;
  /** `assay`: prompts rebuilt by assay with shuffled candidates; `upstream`: the shipped prompt files byte for byte. */
  readonly prompts?: 'assay' | 'upstream';
  /** metatool/similar on a user's own tool set: path of the tools file (`--tools my-tools.json`). */
  readonly tools?: string;
  /** With `tools`: what ranks the nearest tools — `lexical` (BM25, the default) or an embedding model id (`local:./emb.gguf`). */
  readonly embedder?: string;
}

/** Task options with defaults applied and values checked. */
export interface MetaToolOptions {
  readonly perTool: number;
  readonly shots: 0 | 5;
  /** Whether `shots` was given (upstream replays reject an explicit 0). */
  readonly shotsGiven: boolean;
  readonly prompts: 'assay' | 'upstream';
  readonly parser: 'strict' | 'paper';
  readonly limit: number | undefined;
  /** metatool/similar: the user's tools file, and what ranks its nearest tools (undefined: lexical). */
  readonly tools: string | undefined;
  readonly embedder: string | undefined;
}

/** The one MetaTool task that can run on a user's own tool set. */
const OWN_TOOLS_TASK = 'metatool/similar';

/**
 * Applies defaults and checks the values a CLI or config may have passed unchecked.
 * @throws InputError naming the task and the bad option.
 */
export function resolveOptions(taskName: string, options: TaskOptions): MetaToolOptions {
  const { perTool = DEFAULT_PER_TOOL, shots, prompts = 'assay', parser = 'strict', limit, tools, embedder } = options as MetaToolRunOptions;
  if (!Number.isInteger(perTool) || perTool < 1) throw new InputError(`${taskName}: perTool must be a positive integer, got ${String(perTool)}`);
  if (shots !== undefined && shots !== 0 && shots !== 5) throw new InputError(`${taskName}: shots must be 0 or 5, got ${String(shots)}`);
  if (prompts !== 'assay' && prompts !== 'upstream') throw new InputError(`${taskName}: prompts must be "assay" or "upstream", got ${String(prompts)}`);
  if (parser !== 'strict' && parser !== 'paper') throw new InputError(`${taskName}: parser must be "strict" or "paper", got ${String(parser)}`);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new InputError(`${taskName}: limit must be a non-negative integer, got ${String(limit)}`);
  if ((tools !== undefined || embedder !== undefined) && taskName !== OWN_TOOLS_TASK) {
    throw new InputError(`${taskName}: tools and embedder (a user's own tool set) are for ${OWN_TOOLS_TASK} only`);
  }
  if (tools !== undefined && (typeof tools !== 'string' || tools === '')) throw new InputError(`${taskName}: tools must be the path of a tools file, got ${String(tools)}`);
  if (embedder !== undefined && (typeof embedder !== 'string' || embedder === '')) throw new InputError(`${taskName}: embedder must be "lexical" or a model id, got ${String(embedder)}`);
  if (embedder !== undefined && tools === undefined) throw new InputError(`${taskName}: embedder ranks a user's own tools; give tools (--tools my-tools.json) too`);
  return { perTool, shots: shots ?? 0, shotsGiven: shots !== undefined, prompts, parser, limit, tools, embedder };
}

/** The first `limit` items (all when no limit). */
export function applyLimit<T>(items: readonly T[], limit: number | undefined): readonly T[] {
  return limit === undefined ? items : items.slice(0, limit);
}
