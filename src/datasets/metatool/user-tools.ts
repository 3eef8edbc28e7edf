import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z as Zod } from 'zod';
import { InputError, sha256 } from '../../core/index.js';
import type { Loaded, ToolCatalogue } from './dataset.js';
import { parseJsonFile, validateJson } from './read-data-file.js';
import { shape } from './schemas.js';
import { buildToolEPool, compareNames, type ToolERow } from './toole.js';

/**
 * A user's own tool set (`--tools my-tools.json`): a JSON array whose entries are either
 * `{name, description, queries?}` or OpenAI-style `{type: 'function', function: {name,
 * description}, queries?}`. `queries` are the user's questions whose right tool is that entry; a
 * tool without queries is still a candidate but contributes no sample.
 */

function buildUserToolsSchema(z: typeof Zod) {
  const queriesSchema = z.array(z.string().trim().min(1)).optional();
  const plainToolSchema = z.object({ name: z.string().trim().min(1), description: z.string().trim().min(1), queries: queriesSchema });
  const openAIToolSchema = z.object({
    type: z.literal('function'),
    function: z.object({ name: z.string().trim().min(1), description: z.string().trim().min(1) }),
    queries: queriesSchema,
  });
  return z.array(z.union([plainToolSchema, openAIToolSchema]));
}

export const USER_TOOLS_EXPECTED = 'a JSON array of {name, description, queries?: [strings]} or {type: "function", function: {name, description}, queries?}';

/** The file's shape, its schema built (and zod imported) on first use: `datasets/metatool/index.ts` re-exports this module, so a schema built at load put zod in every MetaTool run. */
const userToolsShape = shape(buildUserToolsSchema, USER_TOOLS_EXPECTED);

/** One tool of a user's file, normalised. */
export interface UserTool {
  readonly name: string;
  readonly description: string;
  readonly queries: readonly string[];
}

/**
 * Parses and checks a tools file's text. Names must be unique and not "None" (the abstain
 * answer); a query text may belong to one tool only (its gold would be ambiguous).
 * @param file - the path, for messages.
 * @throws InputError `<file>: at $[3].description: …` or `<file>: entry [3]: …`.
 */
export async function parseUserTools(text: string, file: string): Promise<UserTool[]> {
  const data = { key: file, file, text, sha256: '' };
  const entries = validateJson(data, parseJsonFile(data), await userToolsShape.schema(), userToolsShape.expected);
  const tools = entries.map((e) => ('function' in e ? { name: e.function.name, description: e.function.description, queries: e.queries ?? [] } : { name: e.name, description: e.description, queries: e.queries ?? [] }));
  const toolAt = new Map<string, number>();
  const queryAt = new Map<string, { index: number; tool: string }>();
  tools.forEach((tool, index) => {
    if (tool.name.toLowerCase() === 'none') throw new InputError(`${file}: entry [${index}]: a tool may not be named "${tool.name}" (it is the "no tool" answer)`, { file });
    const first = toolAt.get(tool.name);
    if (first !== undefined) throw new InputError(`${file}: entry [${index}]: tool name "${tool.name}" already used by entry [${first}]; names must be unique`, { file });
    toolAt.set(tool.name, index);
    for (const query of tool.queries) {
      const seen = queryAt.get(query);
      if (seen) {
        const where = seen.index === index ? 'twice in this entry' : `also under "${seen.tool}" (entry [${seen.index}])`;
        throw new InputError(`${file}: entry [${index}]: query ${JSON.stringify(query)} is listed ${where}; each query has exactly one right tool`, { file });
      }
      queryAt.set(query, { index, tool: tool.name });
    }
  });
  return tools;
}

/**
 * The user's tools as a MetaTool catalogue (descriptions printed as written, the queries as the
 * pool), with the file's sha256 keyed by its absolute path so a resume refuses a changed file.
 * @throws InputError naming the file when it is missing, malformed, or has fewer than `minTools` tools.
 */
export async function loadUserTools(file: string, minTools: number): Promise<Loaded<ToolCatalogue>> {
  const absolute = path.resolve(file);
  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${absolute}: ${code === 'ENOENT' ? 'file not found' : `cannot read it (${code ?? String(error)})`}; expected the tools file (${USER_TOOLS_EXPECTED})`, { file: absolute });
  }
  const tools = await parseUserTools(bytes.toString('utf8'), absolute);
  if (tools.length < minTools) {
    throw new InputError(`${absolute}: ${tools.length} tools; a candidate list shows ${minTools}, so the file needs at least ${minTools}`, { file: absolute });
  }
  return { value: userCatalogue(tools), checksums: { [absolute]: sha256(bytes) } };
}

/** The catalogue of a parsed tool set: tools sorted by name, like ToolE's. */
export function userCatalogue(tools: readonly UserTool[]): ToolCatalogue {
  const rows: ToolERow[] = tools.flatMap((t, index) => t.queries.map((query) => ({ query, tool: t.name, line: index })));
  const pool = buildToolEPool(rows);
  // Tools without queries are candidates too: the pool only knows tools that have rows.
  // Frozen, as ToolE's list is (see `buildToolEPool`).
  const names = Object.freeze(tools.map((t) => t.name).sort(compareNames));
  const queriesByTool = new Map(pool.queriesByTool);
  for (const name of names) if (!queriesByTool.has(name)) queriesByTool.set(name, []);
  return {
    tools: names,
    descriptions: new Map(tools.map((t) => [t.name, t.description])),
    pool: { ...pool, tools: names, queriesByTool },
  };
}
