import { InputError } from '../../core/index.js';
import { pythonStrListRepr } from './python-repr.js';

/** The fields of a `plugin_info.json` entry that upstream's prompts read. */
export interface PluginInfo {
  readonly name_for_model: string;
  readonly description_for_human: string;
}

/**
 * The description text upstream MetaTool writes after `tool description: ` for each tool:
 * `big_tool_des[name]` when the tool is one of the merged tools, else the Python `repr` of the list
 * of `description_for_human` of every `plugin_info.json` entry whose `name_for_model` is the name
 * (upstream's `get_tool_description` returns that list and an f-string prints it).
 * @throws InputError naming `plugin_info.json` when a tool has no description anywhere.
 */
export function upstreamToolDescriptions(
  tools: readonly string[],
  bigToolDescriptions: Readonly<Record<string, string>>,
  pluginInfo: readonly PluginInfo[],
  pluginInfoFile: string,
): ReadonlyMap<string, string> {
  // Each name's descriptions in file order, read in one pass (not one pass per tool).
  const byName = new Map<string, string[]>();
  for (const p of pluginInfo) {
    const list = byName.get(p.name_for_model);
    if (list === undefined) byName.set(p.name_for_model, [p.description_for_human]);
    else list.push(p.description_for_human);
  }
  const out = new Map<string, string>();
  for (const tool of tools) {
    if (Object.hasOwn(bigToolDescriptions, tool)) {
      out.set(tool, bigToolDescriptions[tool] as string);
      continue;
    }
    const descriptions = byName.get(tool);
    if (descriptions === undefined) {
      throw new InputError(`${pluginInfoFile}: no entry with name_for_model "${tool}"; expected a description for every tool of all_clean_data.csv that is not in big_tool_des.json`, { file: pluginInfoFile });
    }
    out.set(tool, pythonStrListRepr(descriptions));
  }
  return out;
}
