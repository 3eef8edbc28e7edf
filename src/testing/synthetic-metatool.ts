import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A small MetaTool data set written by {@link writeSyntheticMetaTool}. */
export interface SyntheticMetaTool {
  /** The data dir: the folder that contains `metatool/`. */
  readonly dir: string;
  /** Its tools, in the order of the CSV (the first is `NewsTool`). */
  readonly tools: readonly string[];
}

export interface SyntheticMetaToolOptions {
  /** How many tools the catalogue lists (at least 10, so that `metatool/similar` can show ten). */
  readonly tools?: number;
  /** How many distinct queries each tool has in the CSV. */
  readonly queriesPerTool?: number;
  /** How many awareness items `tmp_dataset/Task1.json` holds (they alternate: needs a tool, does not). */
  readonly awarenessItems?: number;
}

const NAMED = ['NewsTool', 'WeatherTool', 'FinanceTool', 'MapTool', 'FoodTool', 'TravelTool', 'MovieTool', 'MusicTool', 'SportsTool', 'ShoppingTool', 'JobTool', 'HealthTool'];

/**
 * Writes a small MetaTool data set in the upstream files' formats into `dir/metatool/`: the ToolE
 * CSV, `plugin_des.json`, `big_tool_des.json` (every tool's description), `plugin_info.json`, the
 * derived nearest-tools file and the awareness items (`tmp_dataset/Task1.json`). For tests of
 * assay's logic rather than of the real data's figures: they run where the benchmark data is
 * missing. Its bytes are not the pinned ones, so a run on it needs `allowModifiedData`.
 */
export function writeSyntheticMetaTool(dir: string, options: SyntheticMetaToolOptions = {}): SyntheticMetaTool {
  const count = Math.max(10, options.tools ?? 12);
  const perTool = options.queriesPerTool ?? 3;
  const tools = Array.from({ length: count }, (_, i) => NAMED[i] ?? `ExtraTool${i}`);
  const write = (relative: string, text: string): void => {
    const file = path.join(dir, 'metatool', ...relative.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  const topic = (tool: string): string => tool.replace(/Tool\d*$/, '').toLowerCase();
  const rows = tools.flatMap((tool, t) => Array.from({ length: perTool }, (_, q) => `"Can you help me with ${topic(tool)} question ${q + 1} (tool ${t})?",${tool}`));
  write('data/all_clean_data.csv', `Query,Tool\n${rows.join('\n')}\n`);
  const descriptions = Object.fromEntries(tools.map((tool) => [tool, `Answers ${topic(tool)} questions.`]));
  write('plugin_des.json', JSON.stringify(descriptions, null, 2));
  write('big_tool_des.json', JSON.stringify(descriptions, null, 2));
  write('plugin_info.json', '[]');
  // Nearest tools: itself first, then the others in catalogue order after it (upstream keeps 20).
  const neighbours = Object.fromEntries(tools.map((tool, t) => [tool, Array.from({ length: Math.min(20, count) }, (_, k) => tools[(t + k) % count] as string)]));
  write('derived/tool_neighbors_top20.json', JSON.stringify(neighbours, null, 0));
  const awareness = Array.from({ length: options.awarenessItems ?? 10 }, (_, i) => {
    const query = i % 2 === 0 ? `What is the latest ${topic(tools[i % count] as string)} news for item ${i}?` : `Tell me a joke about the number ${i}.`;
    return { thought_prompt: `Do you need a tool for this query?\n${query}`, label: i % 2 === 0 ? 'positive' : 'negative', query };
  });
  write('tmp_dataset/Task1.json', JSON.stringify(awareness, null, 2));
  return { dir, tools };
}
