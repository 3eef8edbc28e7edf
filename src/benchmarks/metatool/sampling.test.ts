import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rngFor } from '../../core/index.js';
import { buildToolEPool, type AwarenessItem } from '../../datasets/metatool/index.js';
import { chooseAwarenessExamples, chooseQueries, chooseSelectionExamples, randomToolsExcluding } from './sampling.js';

// Tools A–H, each with three queries "<tool>1".."<tool>3".
const TOOLS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
const pool = buildToolEPool(TOOLS.flatMap((tool) => [1, 2, 3].map((n) => ({ query: `${tool.toLowerCase()}${n}`, tool, line: 0 }))));
const toolOf = (query: string): string => pool.toolOfQuery.get(query) as string;

describe('chooseQueries', () => {
  it('picks perTool distinct queries of the tool, the same ones for the same seed', () => {
    const a = chooseQueries(pool, 'C', 2, 7);
    assert.equal(a.length, 2);
    assert.equal(new Set(a).size, 2);
    for (const q of a) assert.equal(toolOf(q), 'C');
    assert.deepEqual(chooseQueries(pool, 'C', 2, 7), a);
  });

  it('takes all of them when the tool has fewer', () => {
    assert.deepEqual([...chooseQueries(pool, 'C', 10, 7)].sort(), ['c1', 'c2', 'c3']);
  });
});

describe('randomToolsExcluding', () => {
  it('draws n distinct tools, never an excluded one', () => {
    for (let seed = 0; seed < 50; seed++) {
      const drawn = randomToolsExcluding(TOOLS, new Set(['A', 'B', 'C']), 4, rngFor(seed, 't'));
      assert.equal(new Set(drawn).size, 4);
      for (const t of drawn) assert.ok(!['A', 'B', 'C'].includes(t));
    }
  });
});

describe('chooseSelectionExamples', () => {
  it('3 listed non-gold tools and 2 unlisted "None" tools; never the own query, never a gold query', () => {
    const orders = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      const examples = chooseSelectionExamples({ query: 'a1', shown: ['A', 'B', 'C', 'D'], gold: ['A'], allTools: TOOLS, pool, rng: rngFor(seed, 'x') });
      assert.equal(examples.length, 5);
      const listed = examples.filter((e) => e.tool !== null);
      assert.equal(listed.length, 3);
      assert.equal(new Set(listed.map((e) => e.tool)).size, 3);
      for (const e of listed) {
        assert.ok(['B', 'C', 'D'].includes(e.tool as string));
        assert.equal(toolOf(e.query), e.tool);
      }
      const none = examples.filter((e) => e.tool === null);
      assert.equal(new Set(none.map((e) => toolOf(e.query))).size, 2);
      for (const e of none) assert.ok(['E', 'F', 'G', 'H'].includes(toolOf(e.query)));
      orders.add(examples.map((e) => (e.tool === null ? 'N' : 'T')).join(''));
    }
    // "in random order": the None examples are not always in the same places.
    assert.ok(orders.size > 5, `only ${orders.size} orders`);
  });

  it('fills with None examples when fewer than 3 non-gold tools are listed', () => {
    const examples = chooseSelectionExamples({ query: 'a1', shown: ['A', 'B'], gold: ['A'], allTools: TOOLS, pool, rng: rngFor(1, 'x') });
    assert.equal(examples.length, 5);
    assert.deepEqual(examples.filter((e) => e.tool !== null).map((e) => e.tool), ['B']);
  });

  it('for reliability (gold not listed) still avoids the query tool', () => {
    for (let seed = 0; seed < 50; seed++) {
      const examples = chooseSelectionExamples({ query: 'h1', shown: ['A', 'B', 'C'], gold: ['H'], allTools: TOOLS, pool, rng: rngFor(seed, 'x') });
      for (const e of examples) assert.notEqual(toolOf(e.query), 'H');
    }
  });
});

describe('chooseAwarenessExamples', () => {
  const items: AwarenessItem[] = ['q', 'r', 's', 'q', 't', 'u', 'v', 'w'].map((query, index) => ({ index, query, needsTool: index % 2 === 0, thoughtPrompt: '' }));

  it('five other items with their labels; never the item itself or the same query text', () => {
    for (let seed = 0; seed < 100; seed++) {
      const examples = chooseAwarenessExamples(items[0] as AwarenessItem, items, rngFor(seed, 'x'));
      assert.equal(examples.length, 5);
      assert.equal(new Set(examples.map((e) => e.query)).size, 5);
      for (const e of examples) {
        assert.notEqual(e.query, 'q');
        assert.equal(e.needsTool, (items.find((i) => i.query === e.query) as AwarenessItem).needsTool);
      }
    }
  });
});
