import { withFields, type GenerateResult, type JudgeRunSettings, type Message, type RoleGenerate } from '../../core/index.js';
import { judgeWithRubric } from '../../judges/judge.js';
import type { Rubric } from '../../judges/judge-request.js';
import type { ExplainedScore } from '../../scorers/scorer.js';
import type { JudgeGraded } from '../task.js';
import type { TestCase } from './case-file.js';
import { checkExpectation, isRubric } from './check-output.js';
import { describeExpectation, type ExpectationResult } from './expectation.js';

/** The verdict of a case from its expectations' outcomes: any fail fails it; else any no verdict leaves it undecided; else it passes. */
export function caseVerdict(results: readonly ExpectationResult[]): boolean | null {
  if (results.some((r) => r.outcome === 'fail')) return false;
  if (results.some((r) => r.outcome === 'no-verdict')) return null;
  return true;
}

/**
 * Whether the model gave no answer at all: no text but white space, and no tool call (an endpoint
 * answering `content: null`). Such an answer fails its case whatever it expects: a case of only
 * `not-contains` would otherwise pass on nothing (issue 25: an empty answer is not a perfect one).
 */
export const isEmptyAnswer = (output: GenerateResult): boolean => output.text.trim() === '' && output.toolCalls.length === 0;

/**
 * The score of a case: its verdict, one line per expectation in the explanation, and every outcome
 * in `metadata.expectations`. An empty answer ({@link isEmptyAnswer}) fails the case, marked
 * `metadata.emptyAnswer`, its expectations still checked and shown as written.
 */
export function caseScore(output: GenerateResult, results: readonly ExpectationResult[]): ExplainedScore {
  const empty = isEmptyAnswer(output);
  const value = empty ? false : caseVerdict(results);
  const passed = results.filter((r) => r.outcome === 'pass').length;
  const verdict = value === true ? 'pass' : value === false ? 'fail' : 'no verdict';
  const head = `${verdict}: ${empty ? 'the answer is empty (no text, no tool call); ' : ''}${passed} of ${results.length} expectation(s) passed`;
  const lines = results.map((r) => `${r.expected}: ${r.outcome} (${r.reason})`);
  return { value, answer: answerText(output), explanation: `${head} — ${lines.join('; ')}`, metadata: empty ? { expectations: results, emptyAnswer: true } : { expectations: results } };
}

/** The answer as graded: its text, then each tool call as `name(arguments)` on its own line. */
export function answerText(output: GenerateResult): string {
  return [output.text, ...output.toolCalls.map((c) => `${c.name}(${c.rawArguments})`)].filter((s) => s !== '').join('\n');
}

/**
 * The deterministic score (pure): every expectation but the rubrics checked; a rubric is no
 * verdict until a judge grades it (the run then has one: a case file with a rubric requires --judge).
 */
export function scoreCase(testCase: TestCase, output: GenerateResult): ExplainedScore {
  return caseScore(
    output,
    testCase.expectations.map((ready): ExpectationResult =>
      isRubric(ready)
        ? { kind: 'rubric', expected: describeExpectation(ready.expectation), outcome: 'no-verdict', reason: 'needs a judge' }
        : checkExpectation(ready, output),
    ),
  );
}

/** The conversation the model answered, as the judge reads it: one `role: content` block per message. */
export const conversationText = (messages: readonly Message[]): string => messages.map((m) => `${m.role}: ${m.content}`).join('\n\n');

/**
 * Grades a case with the judge: the deterministic expectations as {@link scoreCase}, and each
 * rubric through the judge subsystem (`judgeWithRubric`: the rubric file filled with fenced
 * values — the conversation, the criterion, the answer — asked `repeats` times, unreadable answers
 * re-asked, a majority vote). Rubrics are asked in file order, step `rubric-<k>`. A rubric the
 * judge cannot decide is that expectation's no verdict (the case's too, unless another
 * expectation failed); a judge call that failed outright makes the sample an error
 * (`judge-<kind>`, retryable), never a no verdict.
 */
export async function gradeCase(testCase: TestCase, output: GenerateResult, rubric: Rubric, judge: RoleGenerate, settings: JudgeRunSettings): Promise<JudgeGraded> {
  const results: ExpectationResult[] = [];
  let k = 0;
  for (const ready of testCase.expectations) {
    if (!isRubric(ready)) {
      results.push(checkExpectation(ready, output));
      continue;
    }
    k += 1;
    if (isEmptyAnswer(output)) {
      // Nothing to grade: the judge is not asked about an answer that is not there.
      results.push({ kind: 'rubric', expected: describeExpectation(ready.expectation), outcome: 'fail', reason: 'the answer is empty; not sent to the judge' });
      continue;
    }
    const values = { conversation: conversationText(testCase.messages), criterion: ready.expectation.criterion, response: answerText(output) };
    const judgment = await judgeWithRubric(judge, { rubric, values }, settings, `rubric-${k}`);
    const failed = judgment.verdict === null ? judgment.calls.find((c) => c.outcome.error !== null) : undefined;
    if (failed?.outcome.error) return { error: { kind: `judge-${failed.outcome.error.kind}`, message: `the judge failed on rubric ${k}: ${failed.outcome.error.message}` } };
    const responses = new Map<number, string>();
    for (const call of judgment.calls) responses.set(call.repeat, call.outcome.output?.text ?? `(no response: ${call.reason})`);
    results.push({
      kind: 'rubric',
      expected: describeExpectation(ready.expectation),
      outcome: judgment.verdict === true ? 'pass' : judgment.verdict === false ? 'fail' : 'no-verdict',
      reason: judgment.explanation,
      judge: { votes: judgment.votes, agreement: judgment.agreement, responses: [...responses.entries()].sort(([a], [b]) => a - b).map(([, text]) => text) },
    });
  }
  const score = caseScore(output, results);
  return { score: withFields(score, { metadata: withFields(score.metadata ?? {}, { judge: { rubric: rubric.id, rubricSha256: rubric.sha256 } }) }) };
}
