import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../core/index.js';
import { upstreamToolDescriptions } from './descriptions.js';
import { NEIGHBOURS_KEPT, nearestNeighbours } from './neighbours.js';
import { parseJsonFile, readDataFile, readDataFileBytes, validateJson, type DataFileText } from './read-data-file.js';
import * as schemas from './schemas.js';
import { compareNames, readToolEPool, type ToolEPool } from './toole.js';

/** A parsed part of the data set and the checksums of the files it was read from. */
export interface Loaded<T> {
  readonly value: T;
  /** sha256 of each file read, keyed by its path relative to the data dir. */
  readonly checksums: Readonly<Record<string, string>>;
}

/** The 199 tools of ToolE with their prompt descriptions and query pool. */
export interface ToolCatalogue {
  /** Tool names of `all_clean_data.csv`, sorted. */
  readonly tools: readonly string[];
  /** The text upstream prints after `tool description: ` (see `upstreamToolDescriptions`). */
  readonly descriptions: ReadonlyMap<string, string>;
  readonly pool: ToolEPool;
}

/** A scenario list (`scenario/<name>.json`). */
export interface Scenario {
  /** File name without `.json`, e.g. `Finance Staff`, `artists&designers`. */
  readonly name: string;
  readonly tools: readonly string[];
}

/** A two-tool query of `multi_tool_query_golden.json`. */
export interface MultiToolQuery {
  /** Position in the file (0-based), kept after deduplication so ids match the file. */
  readonly index: number;
  readonly query: string;
  readonly tools: readonly [string, string];
}

/** An item of the shipped awareness set `tmp_dataset/Task1.json`. */
export interface AwarenessItem {
  readonly index: number;
  readonly query: string;
  /** `label === 'positive'`: the query needs a tool. */
  readonly needsTool: boolean;
  /** For positives, the ToolE tool the query came from. */
  readonly tool?: string;
  /** The shipped five-shot prompt. */
  readonly thoughtPrompt: string;
}

/** An item of a shipped selection prompt file (`Task2-Subtask3.json`, `Task2-Subtask4.json`). */
export interface ShippedSelectionPrompt {
  readonly index: number;
  readonly query: string;
  /** The item's `tool` field: one tool (subtask 3, whose right answer is still None) or two. */
  readonly tools: readonly string[];
  readonly actionPrompt: string;
}

export const METATOOL_FILES = {
  csv: 'metatool/data/all_clean_data.csv',
  pluginDes: 'metatool/plugin_des.json',
  bigToolDes: 'metatool/big_tool_des.json',
  pluginInfo: 'metatool/plugin_info.json',
  scenarioDir: 'metatool/scenario',
  multiGolden: 'metatool/data/multi_tool_query_golden.json',
  embeddings: 'metatool/derived/tool_embedding.json',
  neighbours: 'metatool/derived/tool_neighbors_top20.json',
  task1: 'metatool/tmp_dataset/Task1.json',
  subtask3: 'metatool/tmp_dataset/Task2-Subtask3.json',
  subtask4: 'metatool/tmp_dataset/Task2-Subtask4.json',
} as const;

const checksumsOf = (...files: readonly Pick<DataFileText, 'key' | 'sha256'>[]): Record<string, string> => Object.fromEntries(files.map((f) => [f.key, f.sha256]));

/**
 * The MetaTool data set under one data dir (the folder that contains `metatool/`). Each part is
 * read, validated and parsed on first use and then kept, so preparing tasks repeatedly is cheap.
 * A part that failed to load is forgotten, so fixing the file and asking again works.
 */
export class MetaToolDataset {
  private readonly parts = new Map<string, Promise<unknown>>();

  constructor(readonly dataDir: string) {}

  /** Absolute path of a data file given its data-dir-relative key, for messages. */
  filePath(key: string): string {
    return path.join(this.dataDir, ...key.split('/'));
  }

  private once<T>(name: string, load: () => Promise<T>): Promise<T> {
    let part = this.parts.get(name) as Promise<T> | undefined;
    if (!part) {
      part = load();
      this.parts.set(name, part);
      part.catch(() => this.parts.delete(name));
    }
    return part;
  }

  private async readJson<T>(key: string, shape: schemas.JsonShape<T>): Promise<{ file: DataFileText; value: T }> {
    const file = await readDataFile(this.dataDir, key);
    const value = parseJsonFile(file);
    return { file, value: shape.accepts?.(value) ? (value as T) : validateJson(file, value, await shape.schema(), shape.expected) };
  }

  /** ToolE: the CSV, its query pool, and every tool's prompt description. */
  catalogue(): Promise<Loaded<ToolCatalogue>> {
    return this.once('catalogue', async () => {
      const csv = await readDataFileBytes(this.dataDir, METATOOL_FILES.csv);
      const pool = readToolEPool(csv);
      const pluginDes = await this.readJson(METATOOL_FILES.pluginDes, schemas.stringMap);
      const bigToolDes = await this.readJson(METATOOL_FILES.bigToolDes, schemas.stringMap);
      const pluginInfo = await this.readJson(METATOOL_FILES.pluginInfo, schemas.pluginInfo);
      // plugin_des.json is upstream's list of "all tools"; it must be the CSV's tool set.
      const listed = Object.keys(pluginDes.value).sort(compareNames);
      const missing = pool.tools.filter((t) => !Object.hasOwn(pluginDes.value, t));
      const extra = listed.filter((t) => !pool.tools.includes(t));
      if (missing.length > 0 || extra.length > 0) {
        throw new InputError(
          `${pluginDes.file.file}: expected exactly the ${pool.tools.length} tools of all_clean_data.csv; missing ${JSON.stringify(missing.slice(0, 5))}, extra ${JSON.stringify(extra.slice(0, 5))}`,
          { file: pluginDes.file.file },
        );
      }
      const descriptions = upstreamToolDescriptions(pool.tools, bigToolDes.value, pluginInfo.value, pluginInfo.file.file);
      return {
        value: { tools: pool.tools, descriptions, pool },
        checksums: checksumsOf(csv, pluginDes.file, bigToolDes.file, pluginInfo.file),
      };
    });
  }

  /**
   * Each tool's 20 nearest tools (itself first) by cosine of the ada-002 embeddings among the
   * CSV's tools. Read from `tool_neighbors_top20.json` (67 KB) when present; otherwise computed from
   * `tool_embedding.json` (6.6 MB, far more memory and time to parse). A test checks that both
   * give the same lists.
   */
  neighbours(): Promise<Loaded<ReadonlyMap<string, readonly string[]>>> {
    return this.once('neighbours', async () => {
      const { tools } = (await this.catalogue()).value;
      const haveList = await access(this.filePath(METATOOL_FILES.neighbours)).then(() => true, () => false);
      if (!haveList) return this.neighboursFromEmbeddings(tools);
      const { file, value } = await this.readJson(METATOOL_FILES.neighbours, schemas.neighbours);
      const out = new Map<string, readonly string[]>();
      for (const tool of tools) {
        const list = value[tool];
        if (!list || list.length < NEIGHBOURS_KEPT || list[0] !== tool || list.some((t) => !tools.includes(t))) {
          throw new InputError(`${file.file}: entry "${tool}": expected ${NEIGHBOURS_KEPT} known tool names starting with "${tool}" itself`, { file: file.file });
        }
        out.set(tool, list.slice(0, NEIGHBOURS_KEPT));
      }
      return { value: out, checksums: checksumsOf(file) };
    });
  }

  /** The neighbour lists computed from the embeddings themselves. */
  async neighboursFromEmbeddings(tools: readonly string[]): Promise<Loaded<ReadonlyMap<string, readonly string[]>>> {
    const { file, value } = await this.readJson(METATOOL_FILES.embeddings, schemas.embeddings);
    const vectors = new Map(value.map((e) => [e.tool, e.embedding]));
    const dimensions = value[0]?.embedding.length ?? 0;
    for (const tool of tools) {
      const vector = vectors.get(tool);
      if (!vector) throw new InputError(`${file.file}: no embedding for tool "${tool}"; expected one for every tool of all_clean_data.csv`, { file: file.file });
      if (vector.length !== dimensions) throw new InputError(`${file.file}: embedding of "${tool}" has ${vector.length} numbers; expected ${dimensions} like the others`, { file: file.file });
    }
    return { value: nearestNeighbours(tools, vectors, NEIGHBOURS_KEPT), checksums: checksumsOf(file) };
  }

  /** The scenario lists, sorted by file name; every listed tool must be a ToolE tool. */
  scenarios(): Promise<Loaded<readonly Scenario[]>> {
    return this.once('scenarios', async () => {
      const { tools } = (await this.catalogue()).value;
      const dir = this.filePath(METATOOL_FILES.scenarioDir);
      const names = await readdir(dir).catch(() => {
        throw new InputError(`${dir}: folder not found; expected the MetaTool scenario lists (*.json)`, { file: dir });
      });
      const jsonFiles = names.filter((n) => n.endsWith('.json')).sort(compareNames);
      if (jsonFiles.length === 0) throw new InputError(`${dir}: no .json files; expected the MetaTool scenario lists`, { file: dir });
      const files: DataFileText[] = [];
      const scenarios: Scenario[] = [];
      for (const name of jsonFiles) {
        const { file, value } = await this.readJson(`${METATOOL_FILES.scenarioDir}/${name}`, schemas.scenario);
        const unknown = value.Tools.filter((t) => !tools.includes(t));
        if (unknown.length > 0) {
          throw new InputError(`${file.file}: tools ${JSON.stringify(unknown)} are not in all_clean_data.csv; expected scenario tools to be ToolE tools`, { file: file.file });
        }
        if (new Set(value.Tools).size !== value.Tools.length) throw new InputError(`${file.file}: a tool is listed twice; expected distinct tool names`, { file: file.file });
        files.push(file);
        scenarios.push({ name: name.slice(0, -'.json'.length), tools: value.Tools });
      }
      return { value: scenarios, checksums: checksumsOf(...files) };
    });
  }

  /** The two-tool queries, without repeated (query, tools) pairs; both tools must be ToolE tools. */
  multiToolQueries(): Promise<Loaded<readonly MultiToolQuery[]>> {
    return this.once('multi', async () => {
      const { tools } = (await this.catalogue()).value;
      const { file, value } = await this.readJson(METATOOL_FILES.multiGolden, schemas.multiGolden);
      const seen = new Set<string>();
      const out: MultiToolQuery[] = [];
      value.forEach((item, index) => {
        for (const tool of item.tool) {
          if (!tools.includes(tool)) throw new InputError(`${file.file}: item ${index}: tool "${tool}" is not in all_clean_data.csv; expected ToolE tool names`, { file: file.file });
        }
        if (item.tool[0] === item.tool[1]) throw new InputError(`${file.file}: item ${index}: the same tool twice; expected two different tools`, { file: file.file });
        const key = JSON.stringify([item.query, [...item.tool].sort(compareNames)]);
        if (seen.has(key)) return;
        seen.add(key);
        out.push({ index, query: item.query, tools: item.tool });
      });
      return { value: out, checksums: checksumsOf(file) };
    });
  }

  /** The shipped awareness set (1,040 five-shot prompts). */
  awarenessItems(): Promise<Loaded<readonly AwarenessItem[]>> {
    return this.once('task1', async () => {
      const { file, value } = await this.readJson(METATOOL_FILES.task1, schemas.task1);
      const items = value.map((item, index): AwarenessItem => ({
        index,
        query: item.query,
        needsTool: item.label === 'positive',
        ...(item.tool === undefined ? {} : { tool: item.tool }),
        thoughtPrompt: item.thought_prompt,
      }));
      return { value: items, checksums: checksumsOf(file) };
    });
  }

  /** The shipped reliability prompts (`Task2-Subtask3.json`, five-shot). */
  reliabilityPrompts(): Promise<Loaded<readonly ShippedSelectionPrompt[]>> {
    return this.once('subtask3', async () => {
      const { file, value } = await this.readJson(METATOOL_FILES.subtask3, schemas.subtask3);
      const items = value.map((item, index) => ({ index, query: item.query, tools: [item.tool], actionPrompt: item.action_prompt }));
      return { value: items, checksums: checksumsOf(file) };
    });
  }

  /** The shipped "must choose two" prompts (`Task2-Subtask4.json`, zero-shot). */
  multiToolPrompts(): Promise<Loaded<readonly ShippedSelectionPrompt[]>> {
    return this.once('subtask4', async () => {
      const { file, value } = await this.readJson(METATOOL_FILES.subtask4, schemas.subtask4);
      const items = value.map((item, index) => ({ index, query: item.query, tools: item.tool, actionPrompt: item.action_prompt }));
      return { value: items, checksums: checksumsOf(file) };
    });
  }
}

const datasets = new Map<string, MetaToolDataset>();

/** The process-wide dataset handle for a data dir (one per resolved path, so parts are parsed once). */
export function openMetaTool(dataDir: string): MetaToolDataset {
  const key = path.resolve(dataDir);
  let dataset = datasets.get(key);
  if (!dataset) {
    dataset = new MetaToolDataset(key);
    datasets.set(key, dataset);
  }
  return dataset;
}
