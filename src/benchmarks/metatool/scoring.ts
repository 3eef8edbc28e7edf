import { isNoVerdict, type GenerateResult, type Sample, type Score } from '../../core/index.js';
import type { AnswerParserName } from '../task.js';
import { parseToolSelection } from '../../scorers/tool-selection.js';
import { parseToolSelectionPaper } from '../../scorers/tool-selection-paper.js';
import { parseYesNoPaper, parseYesNoStrict } from '../../scorers/yes-no.js';
import { awarenessMeta, selectionMeta } from './metadata.js';

/**
 * The text a MetaTool answer is read from: the reply text, or — when a model answered only with
 * tool calls (e.g. it was offered the tools as functions) — the called tools' names, one a line.
 */
export function answerText(output: GenerateResult): string {
  if (output.text.trim() === '' && output.toolCalls.length > 0) return output.toolCalls.map((c) => c.name).join('\n');
  return output.text;
}

/** The parsers every MetaTool task offers (`--parser`, `assay rescore --parser`). */
export const METATOOL_PARSERS: readonly AnswerParserName[] = ['strict', 'paper'];

/** Marks a paper-mode score the paper's rules leave to manual analysis (`metadata.manual`). */
const manualAnalysis = (reason: string, metadata: Readonly<Record<string, unknown>> = {}): Score => ({
  value: null,
  answer: null,
  explanation: `manual analysis: ${reason}`,
  metadata: { parser: 'paper', manual: true, ...metadata },
});

/**
 * A no verdict of its own kind: the answer was left to **manual analysis** by a paper-faithful
 * reading whose rules decide nothing (`--parser paper`). Marked `metadata.manual: true`; reported
 * as `manual`, never as a pass or a fail (every MetaTool task's `Task.isManualAnalysis`).
 */
export const isManualAnalysis = (score: Score): boolean => isNoVerdict(score) && score.metadata?.['manual'] === true;

/** Whether a score was read with the paper's rules (its metrics are then over decided answers). */
export const isPaperScore = (score: Score): boolean => score.metadata?.['parser'] === 'paper';

/**
 * Scores an awareness answer: `answer` is 'yes' | 'no' | null; the verdict is whether the answer
 * matches the label ("yes" = needs a tool). Strict: no leading yes/no is no verdict, never a fail.
 * Paper: an answer the paper's rules cannot decide is manual analysis (also `value: null`).
 */
export function scoreAwareness(sample: Sample, output: GenerateResult, parser: AnswerParserName): Score {
  const meta = awarenessMeta(sample);
  const text = answerText(output);
  const answer = parser === 'paper' ? parseYesNoPaper(text) : parseYesNoStrict(text);
  if (answer === 'manual') return manualAnalysis("the paper's rules find neither a yes nor a no");
  if (answer === null) {
    return { value: null, answer: null, explanation: `no yes/no answer found (${parser} parser)`, metadata: { parser } };
  }
  return { value: (answer === 'yes') === meta.needsTool, answer, metadata: { parser } };
}

/** Whether two lists hold the same names, ignoring order (selections have no repeats). */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/**
 * Scores a tool-selection answer against the sample's gold tools. `answer` is the list of tools
 * named (`[]` for "None"); the verdict is true iff that list equals the gold set — `{gold}` for
 * similar/scenario, `{}` (None) for reliability, both golds for multi (in both conditions; the
 * partial 1/1 and 1/2 outcomes of "at most two" are counted by the metrics from `answer`).
 * Strict: names of known tools that were not shown are reported in `metadata.hallucinated`.
 * Paper: the paper's substring rules; its undecided answers are manual analysis; scores carry
 * `metadata.parser: 'paper'` (strict scores carry no parser, as before the paper mode existed).
 * @param catalogue - every ToolE tool name, to recognise off-list names.
 */
export function scoreSelection(sample: Sample, output: GenerateResult, catalogue: readonly string[], parser: AnswerParserName = 'strict'): Score {
  const meta = selectionMeta(sample);
  if (parser === 'paper') {
    const selection = parseToolSelectionPaper(answerText(output), { candidates: meta.candidates, maxSelections: meta.maxSelections });
    if (selection.kind === 'manual') return manualAnalysis(selection.reason, { found: selection.found });
    const tools = selection.kind === 'none' ? [] : selection.tools;
    return { value: sameSet(tools, meta.gold), answer: tools, metadata: { parser: 'paper' } };
  }
  const selection = parseToolSelection(answerText(output), { candidates: meta.candidates, catalogue, maxSelections: meta.maxSelections });
  if (selection.kind === 'no-verdict') {
    const hallucinated = selection.found.filter((name) => !meta.candidates.includes(name));
    return {
      value: null,
      answer: null,
      explanation: selection.reason,
      metadata: { found: selection.found, ...(hallucinated.length > 0 ? { hallucinated } : {}) },
    };
  }
  const tools = selection.kind === 'none' ? [] : selection.tools;
  const hallucinated = selection.kind === 'none' ? [] : selection.hallucinated;
  return {
    value: sameSet(tools, meta.gold),
    answer: tools,
    ...(hallucinated.length > 0 ? { metadata: { hallucinated } } : {}),
  };
}
