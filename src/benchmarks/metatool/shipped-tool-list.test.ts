import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../core/index.js';
import { parseShownTools } from './shipped-tool-list.js';

const known = new Set(['Alpha', 'Beta Tool', 'PDF&URLTool']);
const wrap = (list: string): string =>
  `"preamble\n[List of Tools with Names and Descriptions Start]\n${list}\n[List of Tools with Names and Descriptions End]"\nHere are some examples:\nquery: "x" tool: None\n`;

describe('parseShownTools', () => {
  it('recovers names in order and descriptions exactly as printed, multi-line ones included', () => {
    const list = "1. tool name: PDF&URLTool, tool description: line one\nline two\n2. tool name: Alpha, tool description: ['a, b']\n3. tool name: Beta Tool, tool description: \n";
    assert.deepEqual(parseShownTools(wrap(list), 'f item 0', known), [
      { name: 'PDF&URLTool', description: 'line one\nline two' },
      { name: 'Alpha', description: "['a, b']" },
      { name: 'Beta Tool', description: '' },
    ]);
  });

  it('rejects numbering that skips', () => {
    const list = '1. tool name: Alpha, tool description: a\n3. tool name: Beta Tool, tool description: b\n';
    assert.throws(() => parseShownTools(wrap(list), 'f item 7', known), (e: unknown) => e instanceof InputError && e.message.startsWith('f item 7:') && e.message.includes('numbered 3'));
  });

  it('rejects an unknown tool', () => {
    const list = '1. tool name: Gamma, tool description: g\n';
    assert.throws(() => parseShownTools(wrap(list), 'f item 1', known), (e: unknown) => e instanceof InputError && e.message.includes('"Gamma"'));
  });

  it('rejects a prompt without a tool list section', () => {
    assert.throws(() => parseShownTools('no list here', 'f item 2', known), (e: unknown) => e instanceof InputError && e.message.includes('Start]'));
  });

  it('rejects text before the first tool line', () => {
    const list = 'stray\n1. tool name: Alpha, tool description: a\n';
    assert.throws(() => parseShownTools(wrap(list), 'f item 3', known), InputError);
  });
});
