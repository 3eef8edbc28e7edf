import { describeError, noVerdict, type GenerateResult, type JudgeRunSettings, type RoleGenerate, type Sample, type Score } from '../../core/index.js';
import type { OutputType, RubricFile } from '../../datasets/functionchat/index.js';
import { judgeWithRubric, rubricGraded, type RubricGraded } from '../../judges/judge.js';
import type { JudgeRequest } from '../../judges/judge-request.js';
import { scoreWith, type ExplainedScore, type Scorer } from '../../scorers/scorer.js';
import { exactMatch } from './exact-match.js';
import { functionchatMeta, functionchatTarget } from './metadata.js';
import { diagnoseCall } from './taxonomy.js';
import { upstreamAcceptableArguments, upstreamGroundTruth, upstreamMessages, upstreamResponse, upstreamTools } from './upstream-format.js';

export const EXACT_MATCH = 'exact match';
export const NEEDS_A_JUDGE = 'needs a judge';
/** The verdict of an empty answer to a text item: a fail, final (the judge is not asked). */
export const EMPTY_ANSWER = 'empty answer: no text and no tool call (fails without a judge)';

/** The calls of an output as the score's answer: name and arguments as written. */
const answeredCalls = (output: GenerateResult): { name: string; arguments: string }[] => output.toolCalls.map((c) => ({ name: c.name, arguments: c.rawArguments }));

/**
 * FunctionChat's deterministic scorer, on the scorer contract (`scorers/scorer.ts`). A call item
 * passes on exact match; otherwise it fails (the `--exact-only` verdict), with the error taxonomy
 * in `metadata.errors` and the keys behind it in `metadata.error_keys`. Completion, slot and
 * relevance items are no verdict ("needs a judge"); the answer is the output text. An empty
 * answer (no text beyond white space, no tool call) to a text item fails without a judge: there is
 * nothing to grade, and an empty reply is not a reply ({@link EMPTY_ANSWER}). Every score says
 * why: `exact match`, `not an exact match: <reason>`, `needs a judge`, the empty answer's line.
 */
export const exactMatchScorer: Scorer = {
  name: 'functionchat/exact-match',
  score({ sample, output }): ExplainedScore {
    const meta = functionchatMeta(sample);
    const target = functionchatTarget(sample);
    if (meta.type_of_output !== 'call' || target.groundTruth.kind !== 'call') {
      if (output.text.trim() === '' && output.toolCalls.length === 0) return { value: false, answer: output.text, explanation: EMPTY_ANSWER };
      return { value: null, answer: output.text, explanation: NEEDS_A_JUDGE };
    }
    const answer = answeredCalls(output);
    const match = exactMatch(target.groundTruth, target.acceptable, output.toolCalls);
    if (match.match) return { value: true, answer, explanation: EXACT_MATCH, metadata: { errors: [] } };
    const diagnosis = diagnoseCall({ expected: target.groundTruth, acceptable: target.acceptable, tools: sample.tools ?? [], calls: output.toolCalls });
    return { value: false, answer, explanation: `not an exact match: ${match.reason}`, metadata: { errors: diagnosis.errors, error_keys: diagnosis.keys } };
  },
};

/** The deterministic score of a FunctionChat output: {@link exactMatchScorer} as a task's `score`. */
export const scoreFunctionChat = scoreWith(exactMatchScorer);

/**
 * The rubric values for one output, formatted as upstream formats them: `tools`, `query`,
 * `ground_truth`, `response`, and for call items `acceptable_arguments`.
 */
export function judgeValues(sample: Sample, output: GenerateResult): Record<string, string> {
  const meta = functionchatMeta(sample);
  const target = functionchatTarget(sample);
  const values: Record<string, string> = {
    tools: upstreamTools(sample.tools ?? []),
    query: upstreamMessages(sample.input),
    ground_truth: upstreamGroundTruth(target.groundTruth, meta),
    response: upstreamResponse(output),
  };
  if (meta.type_of_output === 'call') values['acceptable_arguments'] = upstreamAcceptableArguments(target.acceptableText);
  return values;
}

/**
 * The judge request for an output whose deterministic score is not final: every output except
 * an exact-match pass and an empty answer to a text item, graded with the rubric of the item's output type; undefined when the score
 * is final.
 */
export function functionchatJudgeRequest(rubrics: Readonly<Record<OutputType, RubricFile>>, sample: Sample, output: GenerateResult, score: Score): JudgeRequest | undefined {
  if (score.value === true || score.explanation === EMPTY_ANSWER) return undefined;
  const rubric = rubrics[functionchatMeta(sample).type_of_output];
  return { rubric, values: judgeValues(sample, output) };
}

/**
 * FunctionChat's model-graded scorer: the deterministic score first; an exact match is final and
 * never reaches the judge. Any other output is graded by the judge with the rubric of the item's
 * output type (repeats, re-asks, majority vote: `judgeWithRubric`), through the `judge` it is
 * handed; the verdict replaces the value, the deterministic score is kept in
 * `metadata.deterministic` and the judgment in `metadata.judge`. A judge that could not be reached
 * makes the item an error (`judge-<kind>`), never a no verdict.
 */
export async function gradeFunctionChat(
  rubrics: Readonly<Record<OutputType, RubricFile>>,
  sample: Sample,
  output: GenerateResult,
  judge: RoleGenerate,
  settings: JudgeRunSettings,
): Promise<RubricGraded> {
  const score = deterministicScore(sample, output);
  let request: JudgeRequest | undefined;
  try {
    request = functionchatJudgeRequest(rubrics, sample, output, score);
  } catch (error) {
    return { score: noVerdict(`judge request could not be built: ${describeError(error)}`, score.answer) };
  }
  if (!request) return { score };
  return rubricGraded(score, await judgeWithRubric(judge, request, settings), settings.model);
}

/** The deterministic score as the engine computes it: a scorer that throws gives a no verdict with the reason. */
function deterministicScore(sample: Sample, output: GenerateResult): Score {
  try {
    return scoreFunctionChat(sample, output);
  } catch (error) {
    return { value: null, explanation: `scorer failed: ${describeError(error)}` };
  }
}
