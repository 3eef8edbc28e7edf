import { InputError } from '../../core/index.js';
import type { ShownTool } from './prompts.js';

const LIST_START = '[List of Tools with Names and Descriptions Start]\n';
const LIST_END = '\n[List of Tools with Names and Descriptions End]';
const TOOL_LINE = /^(\d+)\. tool name: (.+?), tool description: /gm;

/**
 * Recovers the candidate list of a shipped upstream prompt — names in the order shown and each
 * description exactly as printed — from its `{i}. tool name: …, tool description: …` lines.
 * A description may itself contain line breaks (a few `big_tool_des.json` entries do), so an entry
 * runs until the next numbered tool line, and numbering must go 1, 2, 3, … without gaps.
 * @param where - names the file and item for messages, e.g. `…/Task2-Subtask3.json item 12`.
 * @param knownTools - every ToolE tool; a name outside it means the prompt cannot be replayed.
 * @throws InputError when the list is missing, misnumbered or names an unknown tool.
 */
export function parseShownTools(prompt: string, where: string, knownTools: ReadonlySet<string>): ShownTool[] {
  const start = prompt.indexOf(LIST_START);
  const end = start < 0 ? -1 : prompt.indexOf(LIST_END, start);
  if (start < 0 || end < 0) throw new InputError(`${where}: expected a "[List of Tools with Names and Descriptions Start] … End]" section in the prompt`);
  const section = prompt.slice(start + LIST_START.length, end);
  const matches = [...section.matchAll(TOOL_LINE)];
  const tools = matches.map((match, i): ShownTool => {
    const [line, number = '', name = ''] = match;
    if (Number(number) !== i + 1) throw new InputError(`${where}: tool line ${i + 1} is numbered ${number}; expected consecutive numbers from 1`);
    if (!knownTools.has(name)) throw new InputError(`${where}: shown tool "${name}" is not in all_clean_data.csv; expected ToolE tool names`);
    const next = matches[i + 1]?.index ?? section.length;
    // Each entry ends with the "\n" that upstream appends after the description.
    const description = section.slice((match.index ?? 0) + line.length, next).replace(/\n$/, '');
    return { name, description };
  });
  if (tools.length === 0 || (matches[0]?.index ?? 0) !== 0) throw new InputError(`${where}: expected the tool list to start with "1. tool name: "`);
  return tools;
}
