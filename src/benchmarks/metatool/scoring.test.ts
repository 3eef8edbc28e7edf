import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GenerateResult, Sample } from '../../core/index.js';
import type { AwarenessMeta, SelectionMeta } from './metadata.js';
import { answerText, scoreAwareness, scoreSelection } from './scoring.js';

const output = (text: string, toolNames: string[] = []): GenerateResult => ({
  text,
  toolCalls: toolNames.map((name, i) => ({ id: `c${i}`, name, arguments: {}, rawArguments: '{}' })),
  finishReason: { unified: 'stop' },
  usage: {},
  warnings: [],
});

const catalogue = ['NewsTool', 'FinanceTool', 'WeatherTool', 'MapTool', 'JobTool'];
function selectionSample(task: SelectionMeta['task'], gold: string[], extra: Partial<SelectionMeta> = {}): Sample {
  const candidates = ['NewsTool', 'FinanceTool', 'MapTool'];
  const metadata: SelectionMeta = {
    task,
    source: 'assay',
    query: 'q',
    gold,
    candidates,
    goldPositions: gold.map((g) => candidates.indexOf(g) + 1),
    maxSelections: task === 'multi' ? 2 : 1,
    shots: 0,
    ...extra,
  };
  return { id: 'x', input: [], target: null, metadata };
}

describe('answerText', () => {
  it('is the reply text, or the called tools’ names when the text is empty', () => {
    assert.equal(answerText(output('NewsTool, because…', ['MapTool'])), 'NewsTool, because…');
    assert.equal(answerText(output('  ', ['MapTool', 'NewsTool'])), 'MapTool\nNewsTool');
    assert.equal(answerText(output('')), '');
  });
});

describe('scoreSelection', () => {
  it('single tool: exactly the gold passes', () => {
    const s = selectionSample('similar', ['FinanceTool']);
    assert.deepEqual(scoreSelection(s, output('The best tool is financetool.'), catalogue), { value: true, answer: ['FinanceTool'] });
    assert.deepEqual(scoreSelection(s, output('NewsTool'), catalogue), { value: false, answer: ['NewsTool'] });
    assert.deepEqual(scoreSelection(s, output('None.'), catalogue), { value: false, answer: [] });
  });

  it('single tool: two names is no verdict, with what was found', () => {
    const score = scoreSelection(selectionSample('similar', ['FinanceTool']), output('FinanceTool or NewsTool'), catalogue);
    assert.equal(score.value, null);
    assert.ok(score.explanation);
    assert.deepEqual(score.metadata, { found: ['FinanceTool', 'NewsTool'] });
  });

  it('reports a known tool that was not shown as hallucinated', () => {
    const score = scoreSelection(selectionSample('reliability', []), output('WeatherTool'), catalogue);
    assert.deepEqual(score, { value: false, answer: ['WeatherTool'], metadata: { hallucinated: ['WeatherTool'] } });
  });

  it('reliability: None is correct', () => {
    assert.equal(scoreSelection(selectionSample('reliability', []), output("None. There isn't a fitting tool."), catalogue).value, true);
  });

  it('uses tool-call names when the reply has no text', () => {
    assert.equal(scoreSelection(selectionSample('similar', ['MapTool']), output('', ['MapTool']), catalogue).value, true);
  });

  it('multi: both golds in any order pass; one gold fails', () => {
    const s = selectionSample('multi', ['FinanceTool', 'NewsTool'], { condition: 'must-two' });
    assert.deepEqual(scoreSelection(s, output('NewsTool and FinanceTool'), catalogue), { value: true, answer: ['NewsTool', 'FinanceTool'] });
    assert.deepEqual(scoreSelection(s, output('NewsTool and MapTool'), catalogue), { value: false, answer: ['NewsTool', 'MapTool'] });
  });
});

describe('scoreAwareness', () => {
  const item = (needsTool: boolean): Sample => {
    const metadata: AwarenessMeta = { task: 'awareness', source: 'assay', query: 'q', needsTool, shots: 0 };
    return { id: 'a', input: [], target: needsTool, metadata };
  };

  it('strict: a leading yes/no decides; anything else is no verdict', () => {
    assert.deepEqual(scoreAwareness(item(true), output('Yes, it needs live data.'), 'strict'), { value: true, answer: 'yes', metadata: { parser: 'strict' } });
    assert.deepEqual(scoreAwareness(item(true), output('No.'), 'strict'), { value: false, answer: 'no', metadata: { parser: 'strict' } });
    const unsure = scoreAwareness(item(false), output('I think no tool is needed.'), 'strict');
    assert.equal(unsure.value, null);
    assert.equal(unsure.answer, null);
    assert.ok(unsure.explanation?.includes('strict'));
  });

  it('paper: the substring rules, including the quirk that a stray "no" reads as yes', () => {
    // "I think no tool is needed." has "no" but no "yes", does not start with "no" and contains no
    // listed negative phrase: the paper's rules read it as "yes" — wrong for an item needing no tool.
    assert.deepEqual(scoreAwareness(item(false), output('I think no tool is needed.'), 'paper'), { value: false, answer: 'yes', metadata: { parser: 'paper' } });
  });
});
