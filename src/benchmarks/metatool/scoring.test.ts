import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GenerateResult, Sample } from '../../core/index.js';
import type { AwarenessMeta, SelectionMeta } from './metadata.js';
import { isManualAnalysis as isManual } from './scoring.js';
import { answerText, isPaperScore, scoreAwareness, scoreSelection } from './scoring.js';

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

describe('scoreSelection, paper reading (lowercase substrings of the shown names)', () => {
  const paper = (task: SelectionMeta['task'], gold: string[], text: string, extra: Partial<SelectionMeta> = {}) =>
    scoreSelection(selectionSample(task, gold, extra), output(text), catalogue, 'paper');

  it('single tool: one name and no "none" is compared with the gold', () => {
    assert.deepEqual(paper('similar', ['FinanceTool'], 'I would use financetool.'), { value: true, answer: ['FinanceTool'], metadata: { parser: 'paper' } });
    assert.deepEqual(paper('similar', ['FinanceTool'], 'MapTool'), { value: false, answer: ['MapTool'], metadata: { parser: 'paper' } });
    // Substrings: "newstoolkit" contains "newstool".
    assert.deepEqual(paper('similar', ['NewsTool'], 'NewsToolkit'), { value: true, answer: ['NewsTool'], metadata: { parser: 'paper' } });
  });

  it('single tool: no name reads as None — right for reliability, wrong elsewhere; off-list names are not looked for', () => {
    assert.deepEqual(paper('reliability', [], 'WeatherTool is the one.'), { value: true, answer: [], metadata: { parser: 'paper' } });
    assert.deepEqual(paper('reliability', [], ''), { value: true, answer: [], metadata: { parser: 'paper' } });
    assert.deepEqual(paper('similar', ['MapTool'], 'None of them.'), { value: false, answer: [], metadata: { parser: 'paper' } });
  });

  it('single tool: two names, or one name with "none", is manual analysis', () => {
    const two = paper('similar', ['MapTool'], 'MapTool or NewsTool');
    assert.equal(two.value, null);
    assert.deepEqual(two.metadata, { parser: 'paper', manual: true, found: ['NewsTool', 'MapTool'] });
    const withNone = paper('reliability', [], 'None, though MapTool comes close.');
    assert.equal(withNone.value, null);
    assert.ok(isManual(withNone));
  });

  it('multi: fewer than two names is incorrect, exactly two is correct iff both are golds, more is manual', () => {
    const extra = { condition: 'must-two' as const };
    assert.deepEqual(paper('multi', ['FinanceTool', 'NewsTool'], 'FinanceTool', extra), { value: false, answer: ['FinanceTool'], metadata: { parser: 'paper' } });
    assert.deepEqual(paper('multi', ['FinanceTool', 'NewsTool'], 'newstool + financetool', extra), { value: true, answer: ['NewsTool', 'FinanceTool'], metadata: { parser: 'paper' } });
    assert.deepEqual(paper('multi', ['FinanceTool', 'NewsTool'], 'NewsTool, MapTool', extra), { value: false, answer: ['NewsTool', 'MapTool'], metadata: { parser: 'paper' } });
    assert.ok(isManual(paper('multi', ['FinanceTool', 'NewsTool'], 'NewsTool, MapTool, FinanceTool', extra)));
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

  it('paper: the authors\' rules, including the quirk that a "no" without one of five phrases reads as yes', () => {
    // "I think no tool is needed." has "no" but no "yes" and none of the five negative phrases:
    // the paper's rule 1 reads it as "yes" — wrong for an item needing no tool.
    assert.deepEqual(scoreAwareness(item(false), output('I think no tool is needed.'), 'paper'), { value: false, answer: 'yes', metadata: { parser: 'paper' } });
    assert.deepEqual(scoreAwareness(item(false), output('No, I do not need to use a tool.'), 'paper'), { value: true, answer: 'no', metadata: { parser: 'paper' } });
  });

  it('paper: an answer its rules cannot decide is manual analysis — no verdict, marked, never a pass or fail', () => {
    const score = scoreAwareness(item(true), output('Maybe.'), 'paper');
    assert.equal(score.value, null);
    assert.equal(score.answer, null);
    assert.match(score.explanation ?? '', /^manual analysis: /);
    assert.deepEqual(score.metadata, { parser: 'paper', manual: true });
    assert.ok(isManual(score) && isPaperScore(score));
    assert.ok(!isManual(scoreAwareness(item(true), output('Maybe.'), 'strict')));
  });
});
