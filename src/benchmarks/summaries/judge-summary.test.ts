import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { GenerateRequest, Role, RoleGenerate, StepOutcome } from '../../core/index.js';
import { loadShippedRubric } from '../../judges/shipped-rubrics.js';
import { judgeSummary, type SummaryJudgeSettings, type SummaryRubrics } from './judge-summary.js';

const ARTICLE = 'The mayor of Springfield, Ann Lee, opened a new bridge on Monday. It cost 4 million dollars.';
const SUMMARY = 'Mayor Ann Lee opened a bridge. It cost 5 million dollars.';

interface Made {
  readonly role: Role;
  readonly step: string;
  readonly request: GenerateRequest;
}

/** A judge that answers by step from a table of texts (or functions of the call), recording every call. */
function scriptedJudge(answers: Record<string, string | ((made: Made) => string) | { error: string }>): { generate: RoleGenerate; made: Made[] } {
  const made: Made[] = [];
  const generate: RoleGenerate = async (role, request, step) => {
    const call = { role, step, request };
    made.push(call);
    const answer = answers[step] ?? answers[step.replace(/#\d+$/, '')] ?? answers[step.replace(/\/repeat-\d+$/, '')];
    if (answer === undefined) throw new Error(`no scripted answer for ${step}`);
    if (typeof answer === 'object') return { output: null, error: { kind: 'server', message: answer.error } } satisfies StepOutcome;
    const text = typeof answer === 'function' ? answer(call) : answer;
    return { output: { text, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] }, error: null };
  };
  return { generate, made };
}

const settings = (over: Partial<SummaryJudgeSettings> = {}): SummaryJudgeSettings => ({ repeats: 1, maxParseRetries: 2, seed: 10, temperature: 0, verdicts: 'batch', coverageQuestions: 0, ...over });
const text = (made: Made): string => String(made.request.messages[0]?.content);

let rubrics: SummaryRubrics;
before(async () => {
  rubrics = {
    claims: await loadShippedRubric('summaries/claims'),
    verdicts: await loadShippedRubric('summaries/verdicts'),
    verdictPerClaim: await loadShippedRubric('summaries/verdict-per-claim'),
    coverageQuestions: await loadShippedRubric('summaries/coverage-questions'),
    coverageAnswers: await loadShippedRubric('summaries/coverage-answers'),
  };
});

const CLAIMS = '{"claims": ["Ann Lee opened a bridge.", "The bridge cost 5 million dollars."]}';
const VERDICTS = '{"verdicts": [{"verdict": "yes", "reason": "stated"}, {"verdict": "no", "reason": "it cost 4 million"}]}';

describe('judgeSummary', () => {
  it('claims from the summary alone, then one verdict call for all claims; coverage answered from each side apart', async () => {
    const { generate, made } = scriptedJudge({
      claims: CLAIMS,
      verdicts: VERDICTS,
      'coverage/questions': '{"questions": ["Was a bridge opened?", "Did it cost 4 million dollars?"]}',
      'coverage/answers-from-article': '{"answers": ["yes", "yes"]}',
      'coverage/answers-from-summary': '{"answers": ["yes", "no"]}',
    });
    const judged = await judgeSummary(generate, ARTICLE, SUMMARY, rubrics, settings({ coverageQuestions: 2 }));
    assert.deepEqual(judged, {
      kind: 'judged',
      judgment: {
        claims: [
          { claim: 'Ann Lee opened a bridge.', verdict: 'yes', reason: 'stated' },
          { claim: 'The bridge cost 5 million dollars.', verdict: 'no', reason: 'it cost 4 million' },
        ],
        coverage: { questions: ['Was a bridge opened?', 'Did it cost 4 million dollars?'], fromArticle: ['yes', 'yes'], fromSummary: ['yes', 'no'] },
      },
    });
    assert.deepEqual(made.map((m) => m.role), ['judge', 'judge', 'judge', 'judge', 'judge']);
    assert.deepEqual(made.map((m) => m.step).sort(), ['claims', 'coverage/answers-from-article', 'coverage/answers-from-summary', 'coverage/questions', 'verdicts']);
    const byStep = new Map(made.map((m) => [m.step, m]));
    assert.ok(text(byStep.get('claims') as Made).includes(SUMMARY) && !text(byStep.get('claims') as Made).includes('Springfield'), 'claims see the summary, not the article');
    assert.ok(text(byStep.get('verdicts') as Made).includes('Springfield') && text(byStep.get('verdicts') as Made).includes('The bridge cost 5 million dollars.'));
    assert.ok(!text(byStep.get('coverage/answers-from-summary') as Made).includes('Springfield'), 'the summary side never sees the article');
    assert.match(text(byStep.get('coverage/questions') as Made), /Write exactly 2 questions\.$/);
    assert.deepEqual(byStep.get('verdicts')?.request.responseFormat?.name, 'verdicts');
    assert.equal(byStep.get('claims')?.request.settings.seed, 10);
  });

  it('an unreadable claims answer is asked again with the next seed; a verdict list of the wrong length, then no verdict', async () => {
    let claimsCalls = 0;
    const { generate, made } = scriptedJudge({
      claims: () => (++claimsCalls === 1 ? 'Sure! The claims are: bridge, cost.' : CLAIMS),
      verdicts: '{"verdicts": [{"verdict": "yes", "reason": "stated"}]}',
    });
    const judged = await judgeSummary(generate, ARTICLE, SUMMARY, rubrics, settings());
    assert.deepEqual(judged, { kind: 'no-verdict', reason: 'verdicts#3: 1 verdicts for 2 claim(s)' });
    assert.deepEqual(made.map((m) => [m.step, m.request.settings.seed]), [['claims', 10], ['claims#2', 11], ['verdicts', 10], ['verdicts#2', 11], ['verdicts#3', 12]]);
  });

  it('R = 3 repeats: each claim takes its majority, with the agreement; the claims are extracted once', async () => {
    const { generate, made } = scriptedJudge({
      claims: CLAIMS,
      verdicts: (m) =>
        m.step.endsWith('repeat-3') ? '{"verdicts": [{"verdict": "idk", "reason": "?"}, {"verdict": "no", "reason": "4 million"}]}' : VERDICTS,
    });
    const judged = await judgeSummary(generate, ARTICLE, SUMMARY, rubrics, settings({ repeats: 3 }));
    assert.equal(judged.kind, 'judged');
    assert.deepEqual(judged.kind === 'judged' ? judged.judgment.claims.map((c) => [c.verdict, c.agreement]) : [], [['yes', 2 / 3], ['no', 1]]);
    assert.equal(made.filter((m) => m.step === 'claims').length, 1);
    assert.deepEqual(made.filter((m) => m.step.startsWith('verdicts')).map((m) => m.request.settings.seed).sort(), [10, 11, 12]);
  });

  it('R = 2 with a tie on a claim is no verdict (counted apart), naming the claim and the tally', async () => {
    const { generate } = scriptedJudge({
      claims: CLAIMS,
      verdicts: (m) => (m.step.endsWith('repeat-2') ? '{"verdicts": [{"verdict": "yes", "reason": "x"}, {"verdict": "yes", "reason": "x"}]}' : VERDICTS),
    });
    assert.deepEqual(await judgeSummary(generate, ARTICLE, SUMMARY, rubrics, settings({ repeats: 2 })), {
      kind: 'no-verdict',
      reason: 'claim 2: no majority among 2 verdict repeat(s) (no 1, yes 1)',
    });
  });

  it('per-claim verdicts: one call per claim; an empty summary: no call at all, no claim', async () => {
    const { generate, made } = scriptedJudge({
      claims: CLAIMS,
      'verdicts/claim-1': '{"verdicts": [{"verdict": "yes", "reason": "a"}]}',
      'verdicts/claim-2': '{"verdicts": [{"verdict": "idk", "reason": "b"}]}',
    });
    const judged = await judgeSummary(generate, ARTICLE, SUMMARY, rubrics, settings({ verdicts: 'per-claim' }));
    assert.deepEqual(judged.kind === 'judged' ? judged.judgment.claims.map((c) => c.verdict) : judged, ['yes', 'idk']);
    assert.ok(text(made.find((m) => m.step === 'verdicts/claim-2') as Made).includes('The bridge cost 5 million dollars.'));
    const empty = scriptedJudge({ claims: '{"claims": []}' });
    assert.deepEqual(await judgeSummary(empty.generate, ARTICLE, '', rubrics, settings()), { kind: 'judged', judgment: { claims: [], empty: true } });
    assert.deepEqual(empty.made.map((m) => m.step), []);
    // A summary the judge finds no claim in: one claims call, no verdict call.
    assert.deepEqual(await judgeSummary(empty.generate, ARTICLE, 'Hmm.', rubrics, settings()), { kind: 'judged', judgment: { claims: [] } });
    assert.deepEqual(empty.made.map((m) => m.step), ['claims']);
  });

  it('a judge call that fails after the middleware\'s retries is an error, not a no verdict', async () => {
    const { generate } = scriptedJudge({ claims: CLAIMS, verdicts: { error: 'HTTP 503' } });
    assert.deepEqual(await judgeSummary(generate, ARTICLE, SUMMARY, rubrics, settings()), { kind: 'error', error: { kind: 'server', message: 'HTTP 503' } });
  });
});
