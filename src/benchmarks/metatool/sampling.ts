import { rngFor, sampleWithoutReplacement, shuffled, type Rng } from '../../core/index.js';
import type { AwarenessItem, ToolEPool } from '../../datasets/metatool/index.js';
import type { AwarenessExample, SelectionExample } from './prompts.js';

/**
 * The seeded choices behind MetaTool samples. Every function takes its `Rng` (or seed) from the
 * caller, who derives it with `rngFor(seed, '<choice>:<sample id>')`, so one choice never shifts
 * another and the same seed always builds the same samples.
 */

/** Candidate list size of the single-tool tasks (similar, reliability) and of multi. */
export const CANDIDATES_SHOWN = 10;

/**
 * `perTool` distinct queries of a tool, at random (all of them, shuffled, when it has fewer).
 * The label names only the tool, so `similar`, `scenario` and `reliability` ask about the same
 * queries of a tool under the same seed — their scores are comparable query for query.
 */
export function chooseQueries(pool: ToolEPool, tool: string, perTool: number, seed: number): string[] {
  return sampleWithoutReplacement(pool.queriesByTool.get(tool) ?? [], perTool, rngFor(seed, `queries:${tool}`));
}

/** `n` tools at random from `tools` minus `excluded`, in random order. */
export function randomToolsExcluding(tools: readonly string[], excluded: ReadonlySet<string>, n: number, rng: Rng): string[] {
  return sampleWithoutReplacement(
    tools.filter((t) => !excluded.has(t)),
    n,
    rng,
  );
}

/**
 * Five in-context examples for a selection prompt: 3 queries of 3 distinct non-gold tools of the
 * shown list (answer: that tool) and 2 queries of tools that are neither shown nor gold (answer:
 * None), in random order — the mix of the shipped `Task2-Subtask3.json` prompts. Never the
 * sample's own query, never a query of a gold tool. With fewer than 3 usable non-gold candidates
 * the remaining examples are None examples, so there are always five.
 */
export function chooseSelectionExamples(args: {
  readonly query: string;
  readonly shown: readonly string[];
  readonly gold: readonly string[];
  readonly allTools: readonly string[];
  readonly pool: ToolEPool;
  readonly rng: Rng;
}): SelectionExample[] {
  const { query, shown, gold, allTools, pool, rng } = args;
  const usableQueries = (tool: string): string[] => (pool.queriesByTool.get(tool) ?? []).filter((q) => q !== query);
  const usable = (tool: string): boolean => {
    // Checked without filtering the tool's whole query list: this runs for every tool of every sample.
    const queries = pool.queriesByTool.get(tool) ?? [];
    return !gold.includes(tool) && (queries.length > 1 || (queries.length === 1 && queries[0] !== query));
  };
  const pick = (tool: string): string => {
    const queries = usableQueries(tool);
    return queries[rng.int(queries.length)] as string;
  };
  const listed = sampleWithoutReplacement(shown.filter(usable), 3, rng);
  const unlisted = sampleWithoutReplacement(
    allTools.filter((t) => !shown.includes(t) && usable(t)),
    5 - listed.length,
    rng,
  );
  const examples: SelectionExample[] = [
    ...listed.map((tool) => ({ query: pick(tool), tool })),
    ...unlisted.map((tool) => ({ query: pick(tool), tool: null })),
  ];
  return shuffled(examples, rng);
}

/**
 * Five in-context examples for an awareness prompt, at random from the other items: never the
 * item itself, nor an item with the same query text.
 */
export function chooseAwarenessExamples(item: AwarenessItem, items: readonly AwarenessItem[], rng: Rng): AwarenessExample[] {
  const others = items.filter((o) => o.index !== item.index && o.query !== item.query);
  return sampleWithoutReplacement(others, 5, rng).map((o) => ({ query: o.query, needsTool: o.needsTool }));
}
