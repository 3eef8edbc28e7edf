import { sharedText, type SharedText, type TextParts } from '../../core/index.js';

/**
 * MetaTool's prompt templates, verbatim from the upstream repository
 * (`src/prompt/prompt_template/`, commit 35e81bb) and from the shipped `tmp_dataset` files,
 * and the few-shot formats of the shipped files. Tests check every rendering byte for byte
 * against the shipped prompts; change nothing here without bumping `PROMPT_VERSION`.
 */

/** Recorded with every run; bump when any template or format below changes. */
export const PROMPT_VERSION = 'metatool-prompts/1';

/** `tool_reason_prompt`: the four reasons to use a tool, substituted for `{tool_reason}`. */
export const TOOL_REASONS =
  "A. Solving issues with real-time or external data, databases or APIs\nB. Handling specialized inputs/outputs\nC. Enhancing domain tasks beyond LLM's capabilities\nD. User customization, personalization and interaction";

/** `Thought_prompt_single_tool`: does the query need a tool (awareness). */
export const THOUGHT_PROMPT_SINGLE_TOOL =
  "You are an intelligent agent, and you need to constantly be aware of your own limitations. I will provide you with a user's query, and you should assess, based on your own capabilities, whether you need to use external tools to better address the user's query. Typically, there are four reasons why you might need to use external tools:\n[Reasons Begin]\n{tool_reason}\n[Reasons End]\nHere is the user's query:\n[User Query Begins]\n{user_query}\n[User Query Ends]\nBased on the above query, if you think it's necessary to use external tools, please respond with \"yes\"; otherwise, respond with \"no.\" Additionally, you should provide a brief explanation for your answer.";

/** `Action_prompt_single_tool`: choose one tool or None. The surrounding `"` are part of upstream's file. */
export const ACTION_PROMPT_SINGLE_TOOL =
  "\"You are a helpful AI assistant. Your current task is to choose the appropriate tool to solve the user's query based on their question. I will provide you with the user's question and information about the tools.\nIf there is a tool in the list that is applicable to this query, please return the name of the tool (you can only choose one tool). If there isn't, please return 'None.' Additionally, you will need to support your answer with a brief explanation.\nUser's Query:\n[User's Query Start]\n{user_query}\n[User's Query End].\nList of Tools with Names and Descriptions:\n[List of Tools with Names and Descriptions Start]\n{tool_list}\n[List of Tools with Names and Descriptions End]\"";

/** `Action_prompt_multi_tool`: "choose at most two" (or None). */
export const ACTION_PROMPT_MULTI_TOOL =
  "\"You are a helpful AI assistant. Your current task is to choose the appropriate tool to solve the user's query based on their question. I will provide you with the user's question and information about the tools.\nIf there is a tool in the list that is applicable to this query, please return the name of the tool (you can choose two tools at most). If there isn't, please return 'None.' Additionally, you will need to support your answer with a brief explanation.\nUser's Query:\n[User's Query Start]\n{user_query}\n[User's Query End].\nList of Tools with Names and Descriptions:\n[List of Tools with Names and Descriptions Start]\n{tool_list}\n[List of Tools with Names and Descriptions End]\"";

/** "Must choose two": the template of the shipped `Task2-Subtask4.json` prompts (not in upstream's template folder). */
export const ACTION_PROMPT_MUST_TWO_TOOLS =
  "\"You are a helpful AI assistant. Your current task is to choose two appropriate tools to solve the user's query based on their question. I will provide you with the user's question and information about the tools.\nPlease return two names of the tool you will choose. Additionally, you will need to support your answer with a brief explanation.\nUser's Query:\n[User's Query Start]\n{user_query}\n[User's Query End].\nList of Tools with Names and Descriptions:\n[List of Tools with Names and Descriptions Start]\n{tool_list}\n[List of Tools with Names and Descriptions End]\"";

/** Which selection template a sample uses. */
export type SelectionTemplate = 'single' | 'at-most-two' | 'must-two';

const SELECTION_TEMPLATES: Readonly<Record<SelectionTemplate, string>> = {
  single: ACTION_PROMPT_SINGLE_TOOL,
  'at-most-two': ACTION_PROMPT_MULTI_TOOL,
  'must-two': ACTION_PROMPT_MUST_TWO_TOOLS,
};

/** Python's `str.replace(old, new)`: every occurrence, and `new` taken literally (no `$&` patterns). */
function replaceAll(text: string, placeholder: string, value: string): string {
  return text.split(placeholder).join(value);
}

/** A tool shown in a candidate list. */
export interface ShownTool {
  readonly name: string;
  /** The description text exactly as printed (see `upstreamToolDescriptions`). */
  readonly description: string;
}

// One shared line tail per shown tool object: shown tools are made once per tool set, never changed (readonly), and reused by every sample.
const lineTails = new WeakMap<ShownTool, SharedText>();
/** A tool's line after its number: `. tool name: {name}, tool description: {desc}\n`. */
function lineTail(tool: ShownTool): SharedText {
  let tail = lineTails.get(tool);
  if (!tail) {
    tail = sharedText(`. tool name: ${tool.name}, tool description: ${tool.description}\n`);
    lineTails.set(tool, tail);
  }
  return tail;
}

/** `{i}. tool name: {name}, tool description: {desc}\n` for i = 1..n (upstream's `get_tool_list_des`). */
export function renderToolList(tools: readonly ShownTool[]): string {
  return tools.map((t, i) => `${i + 1}${lineTail(t).shared}`).join('');
}

/** The awareness prompt, zero-shot (upstream's `construct_thought_prompt`, same substitution order). */
export function renderThoughtPrompt(query: string): string {
  return replaceAll(replaceAll(THOUGHT_PROMPT_SINGLE_TOOL, '{user_query}', query), '{tool_reason}', TOOL_REASONS);
}

/** A selection prompt, zero-shot (upstream's `construct_single_prompt`, same substitution order). */
export function renderActionPrompt(template: SelectionTemplate, query: string, tools: readonly ShownTool[]): string {
  return replaceAll(replaceAll(SELECTION_TEMPLATES[template], '{user_query}', query), '{tool_list}', renderToolList(tools));
}

/** An in-context example of the awareness prompt. */
export interface AwarenessExample {
  readonly query: string;
  readonly needsTool: boolean;
}

/** The five-shot awareness prompt, in the format of the shipped `Task1.json`. */
export function renderAwarenessFewShot(query: string, examples: readonly AwarenessExample[]): string {
  const lines = examples.map((e) => `query: "${e.query}" answer: ${e.needsTool ? 'Yes' : 'No'}\n`).join('');
  return `${renderThoughtPrompt(query)}\nHere are some examples:\n[Examples Start]\n${lines}[Examples End]\n\nUser query: "${query}" answer: `;
}

/** An in-context example of a selection prompt: a query and its tool, or null for "None". */
export interface SelectionExample {
  readonly query: string;
  readonly tool: string | null;
}

/** What follows the zero-shot prompt in a five-shot selection prompt, before the examples. */
const FEW_SHOT_HEADER = sharedText('\nHere are some examples:\n[Examples Start]\n');

/** The five-shot selection prompt, in the format of the shipped `Task2-Subtask3.json` (no "[Examples End]"). */
export function renderSelectionFewShot(zeroShotPrompt: string, query: string, examples: readonly SelectionExample[]): string {
  return `${zeroShotPrompt}${FEW_SHOT_HEADER.shared}${selectionExamplesTail(query, examples)}`;
}

/** After the header: one line per example, then the question again, left open for the model's tool. */
function selectionExamplesTail(query: string, examples: readonly SelectionExample[]): string {
  const lines = examples.map((e) => `query: "${e.query}" tool: ${e.tool ?? 'None'}\n`).join('');
  return `${lines}User query: "${query}" tool: `;
}

/** A selection template cut around its two placeholders, each piece shared by every prompt that uses it. */
interface SplitTemplate {
  readonly beforeQuery: SharedText;
  readonly beforeList: SharedText;
  readonly afterList: SharedText;
}

function splitTemplate(template: string): SplitTemplate {
  const [beforeQuery, rest, ...more] = template.split('{user_query}');
  const [beforeList, afterList, ...moreLists] = (rest ?? '').split('{tool_list}');
  // Every template has one query placeholder followed by one list placeholder; anything else would need Python's replace order.
  if (more.length > 0 || moreLists.length > 0 || beforeList === undefined || afterList === undefined || beforeQuery?.includes('{tool_list}')) {
    throw new Error('a selection template must hold {user_query} once, then {tool_list} once');
  }
  return { beforeQuery: sharedText(beforeQuery ?? ''), beforeList: sharedText(beforeList), afterList: sharedText(afterList) };
}

const SPLIT_TEMPLATES: Readonly<Record<SelectionTemplate, SplitTemplate>> = {
  single: splitTemplate(ACTION_PROMPT_SINGLE_TOOL),
  'at-most-two': splitTemplate(ACTION_PROMPT_MULTI_TOOL),
  'must-two': splitTemplate(ACTION_PROMPT_MUST_TWO_TOOLS),
};


/**
 * The selection prompt assay sends (zero-shot, or five-shot with `examples`), as parts whose join
 * is exactly `renderSelectionFewShot(renderActionPrompt(…), …)` (tests check it on every shipped
 * prompt): the template's fixed text and each tool's line are shared, so a store keeps them once
 * per run. A query holding `{tool_list}` (which Python's replace would substitute too) is
 * rendered the reference way, as one literal part.
 */
export function selectionPromptParts(template: SelectionTemplate, query: string, tools: readonly ShownTool[], examples?: readonly SelectionExample[]): TextParts {
  if (query.includes('{tool_list}')) {
    const zeroShot = renderActionPrompt(template, query, tools);
    return [examples ? renderSelectionFewShot(zeroShot, query, examples) : zeroShot];
  }
  const split = SPLIT_TEMPLATES[template];
  const parts: (string | SharedText)[] = [split.beforeQuery, query, split.beforeList];
  tools.forEach((tool, i) => parts.push(String(i + 1), lineTail(tool)));
  parts.push(split.afterList);
  if (examples) parts.push(FEW_SHOT_HEADER, selectionExamplesTail(query, examples));
  return parts;
}
