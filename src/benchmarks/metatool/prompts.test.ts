import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { openMetaTool, type ToolCatalogue } from '../../datasets/metatool/index.js';
import { metatoolFile, needsData, testDataDir } from '../../testing/test-data.js';
import {
  ACTION_PROMPT_MULTI_TOOL,
  ACTION_PROMPT_SINGLE_TOOL,
  renderActionPrompt,
  renderAwarenessFewShot,
  renderSelectionFewShot,
  renderThoughtPrompt,
  renderToolList,
  selectionPromptParts,
  type ShownTool,
} from './prompts.js';
import { joinTextParts, type SharedText } from '../../core/index.js';

// The shipped files, read here directly (not through the loader) so the check is independent of it.
const readJson = <T>(relative: string): T => JSON.parse(readFileSync(metatoolFile(relative), 'utf8')) as T;
const skip = needsData('metatool');
let task1: { thought_prompt: string; label: string; query: string }[];
let subtask3: { action_prompt: string; query: string; tool: string }[];
let subtask4: { action_prompt: string; query: string; tool: string[] }[];

/** Tool names of a shipped prompt's list, by a plain regex over its numbered lines. */
function namesIn(prompt: string): string[] {
  const start = prompt.indexOf('[List of Tools with Names and Descriptions Start]\n');
  const end = prompt.indexOf('[List of Tools with Names and Descriptions End]');
  return [...prompt.slice(start, end).matchAll(/^\d+\. tool name: (.+?), tool description: /gm)].map((m) => m[1] as string);
}

let catalogue: ToolCatalogue;
const shown = (names: readonly string[]): ShownTool[] => names.map((name) => ({ name, description: catalogue.descriptions.get(name) as string }));

before(async () => {
  if (skip) return;
  task1 = readJson('tmp_dataset/Task1.json');
  subtask3 = readJson('tmp_dataset/Task2-Subtask3.json');
  subtask4 = readJson('tmp_dataset/Task2-Subtask4.json');
  catalogue = (await openMetaTool(testDataDir()).catalogue()).value;
});

describe('prompt templates', () => {
  it('"at most two" differs from the single-tool template only in the parenthesis', () => {
    assert.equal(ACTION_PROMPT_MULTI_TOOL, ACTION_PROMPT_SINGLE_TOOL.replace('(you can only choose one tool)', '(you can choose two tools at most)'));
  });

  it('renders a tool list as numbered lines, each ending with a newline', () => {
    assert.equal(
      renderToolList([
        { name: 'A', description: 'first' },
        { name: 'B', description: "['x']" },
      ]),
      "1. tool name: A, tool description: first\n2. tool name: B, tool description: ['x']\n",
    );
  });

  it('substitutes like Python str.replace: "$&" stays literal; a "{tool_list}" inside the query is replaced too', () => {
    const prompt = renderActionPrompt('single', 'q $& {tool_list}', [{ name: 'A', description: 'd' }]);
    assert.ok(prompt.includes('[User\'s Query Start]\nq $& 1. tool name: A, tool description: d\n\n[User\'s Query End].'));
  });
});

describe('byte-for-byte against the shipped prompts', { skip }, () => {
  it('Task2-Subtask3.json: every tool list re-rendered from its names appears in the prompt', () => {
    for (const [i, item] of subtask3.entries()) {
      const names = namesIn(item.action_prompt);
      assert.equal(names.length, 10, `item ${i}`);
      assert.ok(item.action_prompt.includes(renderToolList(shown(names))), `item ${i}`);
    }
  });

  it('Task2-Subtask4.json: every tool list re-rendered from its names appears in the prompt', () => {
    for (const [i, item] of subtask4.entries()) {
      const names = namesIn(item.action_prompt);
      assert.equal(names.length, 10, `item ${i}`);
      assert.ok(item.action_prompt.includes(renderToolList(shown(names))), `item ${i}`);
    }
  });

  it('Task2-Subtask4.json: every prompt is the "must choose two" template, re-rendered whole', () => {
    for (const [i, item] of subtask4.entries()) {
      assert.equal(renderActionPrompt('must-two', item.query, shown(namesIn(item.action_prompt))), item.action_prompt, `item ${i}`);
    }
  });

  it('Task2-Subtask3.json: every prompt is the single-tool template plus five examples, re-rendered whole', () => {
    const inList = { listed: 0, none: 0 };
    for (const [i, item] of subtask3.entries()) {
      const names = namesIn(item.action_prompt);
      const zeroShot = renderActionPrompt('single', item.query, shown(names));
      assert.ok(item.action_prompt.startsWith(zeroShot), `item ${i}`);
      const examples = [...item.action_prompt.slice(zeroShot.length).matchAll(/query: "([\s\S]*?)" tool: ([^\n]*)\n/g)].map((m) => ({
        query: m[1] as string,
        tool: m[2] === 'None' ? null : (m[2] as string),
      }));
      assert.equal(examples.length, 5, `item ${i}`);
      for (const e of examples) {
        if (e.tool === null) inList.none++;
        else if (names.includes(e.tool)) inList.listed++;
      }
      assert.equal(renderSelectionFewShot(zeroShot, item.query, examples), item.action_prompt, `item ${i}`);
    }
    // The mix assay copies for its own five-shot prompts: 3 listed tools and 2 "None" per prompt.
    assert.deepEqual(inList, { listed: 3 * 995, none: 2 * 995 });
  });

  it('Task1.json: every prompt is the thought prompt plus five examples, re-rendered whole', () => {
    const labelOf = new Map(task1.map((t) => [t.query, t.label]));
    for (const [i, item] of task1.entries()) {
      const zeroShot = renderThoughtPrompt(item.query);
      assert.ok(item.thought_prompt.startsWith(zeroShot), `item ${i}`);
      const examples = [...item.thought_prompt.slice(zeroShot.length).matchAll(/query: "([\s\S]*?)" answer: (Yes|No)\n/g)].map((m) => ({
        query: m[1] as string,
        needsTool: m[2] === 'Yes',
      }));
      assert.equal(examples.length, 5, `item ${i}`);
      // The examples are other Task1 items, answered by their labels (this also checks the parse).
      for (const e of examples) assert.equal(labelOf.get(e.query), e.needsTool ? 'positive' : 'negative', `item ${i}`);
      assert.equal(renderAwarenessFewShot(item.query, examples), item.thought_prompt, `item ${i}`);
    }
  });
});

describe('selection prompts as parts (what the store keeps once per run)', () => {
  const reference = (template: 'single' | 'must-two', query: string, tools: readonly ShownTool[], examples?: { query: string; tool: string | null }[]): string => {
    const zeroShot = renderActionPrompt(template, query, tools);
    return examples ? renderSelectionFewShot(zeroShot, query, examples) : zeroShot;
  };

  it('join to exactly the reference rendering for every shipped prompt, zero- and five-shot', { skip }, () => {
    for (const [i, item] of subtask3.entries()) {
      const tools = shown(namesIn(item.action_prompt));
      assert.equal(joinTextParts(selectionPromptParts('single', item.query, tools)), reference('single', item.query, tools), `Subtask3 item ${i}`);
      const examples = [...item.action_prompt.matchAll(/query: "([\s\S]*?)" tool: ([^\n]*)\n/g)].map((m) => ({ query: m[1] as string, tool: m[2] === 'None' ? null : (m[2] as string) }));
      assert.equal(joinTextParts(selectionPromptParts('single', item.query, tools, examples)), item.action_prompt, `Subtask3 item ${i}, five-shot`);
    }
    for (const [i, item] of subtask4.entries()) {
      const tools = shown(namesIn(item.action_prompt));
      assert.equal(joinTextParts(selectionPromptParts('must-two', item.query, tools)), item.action_prompt, `Subtask4 item ${i}`);
    }
  });

  it('share the template text and each tool line between prompts, and keep the query literal', { skip }, () => {
    const tools = shown(namesIn(subtask3[0]?.action_prompt ?? ''));
    const a = selectionPromptParts('at-most-two', 'first query', tools);
    const b = selectionPromptParts('at-most-two', 'second query', [...tools].reverse());
    const sharedOf = (parts: readonly (string | SharedText)[]): Set<SharedText> => new Set(parts.filter((p): p is SharedText => typeof p !== 'string'));
    assert.equal(sharedOf(a).size, 3 + tools.length); // three template pieces and one line per tool
    assert.deepEqual(sharedOf(a), sharedOf(b)); // the very same objects, in another order
    assert.ok(a.includes('first query') && b.includes('second query'));
  });

  it('a query holding "{tool_list}" is rendered the reference way (Python replaces it too), as one literal', () => {
    const tools = [{ name: 'A', description: 'd' }];
    const parts = selectionPromptParts('single', 'q $& {tool_list}', tools);
    assert.deepEqual(parts, [renderActionPrompt('single', 'q $& {tool_list}', tools)]);
  });
});
