import { withFields, type RoleGenerate, type SeededJudgeSettings } from '../../core/index.js';
import { askJudgeForJson, type AskJsonResult } from '../../judges/ask-json.js';
import { fillRubric } from '../../judges/fill.js';
import type { Rubric } from '../../judges/judge-request.js';
import { ANSWERS_SCHEMA, CLAIMS_SCHEMA, QUESTIONS_SCHEMA, VERDICTS_SCHEMA, answersAnswer, claimsAnswer, questionsAnswer, verdictsAnswer, type VerdictsAnswer } from './judge-answers.js';
import type { ClaimLabel, ClaimVerdict, CoverageAnswers, SummaryJudgment } from './judgment.js';

/** The rubrics of the summaries judge (shipped in `rubrics/summaries/`, each overridable). */
export interface SummaryRubrics {
  /** `{summary}` → `{"claims": […]}`. */
  readonly claims: Rubric;
  /** `{article}`, `{claims}` → `{"verdicts": […]}`, one per claim (the default, one call per summary). */
  readonly verdicts: Rubric;
  /** `{article}`, `{claim}` → `{"verdicts": [one]}` (`--verdicts per-claim`). */
  readonly verdictPerClaim: Rubric;
  /** `{article}` → `{"questions": […]}`. */
  readonly coverageQuestions: Rubric;
  /** `{text}`, `{questions}` → `{"answers": […]}`, asked once with the article and once with the summary. */
  readonly coverageAnswers: Rubric;
}

/**
 * The judge settings of a run (R = `--judge-repeats`: verdict repeats, each claim's verdict the
 * strict majority of R; claims are extracted once; `--judge-parse-retries` re-asks; the seed), and
 * the task's own: how verdicts are asked for and how many coverage questions.
 */
export type SummaryJudgeSettings = Omit<SeededJudgeSettings, 'format'> & {
  /** `batch`: one verdict call per summary for all its claims; `per-claim`: one call per claim. */
  readonly verdicts: 'batch' | 'per-claim';
  /** Coverage questions to write from the article (`--coverage-questions`); 0 turns coverage off. */
  readonly coverageQuestions: number;
};

/** How judging one summary ended. */
export type SummaryJudged =
  | { readonly kind: 'judged'; readonly judgment: SummaryJudgment }
  /** The claims or their verdicts gave no usable answer: alignment no verdict; a usable coverage check stands. */
  | { readonly kind: 'no-verdict'; readonly reason: string; readonly coverage?: CoverageAnswers }
  | { readonly kind: 'error'; readonly error: { readonly kind: string; readonly message: string } };

type NoVerdict = { readonly kind: 'no-verdict'; readonly reason: string };
type JudgeError = Extract<SummaryJudged, { kind: 'error' }>;
type Failed = NoVerdict | JudgeError;
const failed = <T>(result: AskJsonResult<T>): Failed | undefined =>
  result.kind === 'answer' ? undefined : result.kind === 'error' ? { kind: 'error', error: result.error } : { kind: 'no-verdict', reason: result.reason };

/** Whether a summary holds no text at all (a `content: null` answer, or only white space). */
export const isEmptySummary = (summary: string): boolean => summary.trim() === '';

/**
 * Judges one summary against its article, through the judge role only:
 * 1. **claims** — the summary (never the article) split into atomic claims;
 * 2. **verdicts** — each claim labelled yes / no / idk against the article with a reason; with R
 *    repeats, each claim takes the strict majority of its R labels (agreement kept); a claim with
 *    no majority makes the summary's alignment no verdict;
 * 3. **coverage** (k > 0) — k closed questions written from the article, then answered from the
 *    article alone and from the summary alone (the summary's call never sees the article).
 * Each metric is decided by the steps it needs: claims and verdicts decide alignment (and the
 * claim-level figures), the coverage steps decide coverage; one step's no verdict never erases
 * the other's answer. An empty summary (no text) has no claims without asking, and answers no
 * coverage question ("idk" to each, without asking): it fails alignment.
 * Seeds: step s's k-th re-ask uses `seed + k` (verdict repeat r: `seed + r + R·k`), so a changed
 * verdict rubric or more repeats never change the claims call: it comes back from the cache.
 * An unusable answer is re-asked up to `maxParseRetries` times, then that step is no verdict;
 * a judge call that fails after the middleware's retries makes the summary an error (retried by
 * `--retry-errors`; the other steps' calls come back from the cache). Never throws for judge output.
 */
export async function judgeSummary(generate: RoleGenerate, article: string, summary: string, rubrics: SummaryRubrics, settings: SummaryJudgeSettings): Promise<SummaryJudged> {
  const sampling = { temperature: settings.temperature, ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}) };
  const tries = (seedOf: (k: number) => number): number[] => Array.from({ length: settings.maxParseRetries + 1 }, (_, k) => seedOf(k));
  const empty = isEmptySummary(summary);

  // An empty summary has no claims: nothing to ask the judge.
  let claims: { readonly list: readonly string[] } | Failed = { list: [] };
  if (!empty) {
    const claimsAsked = await askJudgeForJson(generate, {
      step: 'claims',
      prompt: fillRubric({ rubric: rubrics.claims, values: { summary } }),
      schema: claimsAnswer,
      format: { type: 'json', name: 'claims', schema: CLAIMS_SCHEMA },
      settings: sampling,
      seeds: tries((k) => settings.seed + k),
    });
    claims = claimsAsked.kind === 'answer' ? { list: claimsAsked.value.claims } : (failed(claimsAsked) as Failed);
  }
  if ('kind' in claims && claims.kind === 'error') return claims;

  const [verdicts, coverage] = await Promise.all([
    'list' in claims ? judgeClaims(generate, article, claims.list, rubrics, settings, sampling, tries) : Promise.resolve(claims),
    checkCoverage(generate, article, summary, empty, rubrics, settings, sampling, tries),
  ]);
  if (!Array.isArray(verdicts) && verdicts.kind === 'error') return verdicts;
  if (coverage !== undefined && 'kind' in coverage && coverage.kind === 'error') return coverage;
  const coverageAnswers = coverage !== undefined && !('kind' in coverage) ? coverage : undefined;
  if (!Array.isArray(verdicts)) return withFields(verdicts, coverageAnswers ? { coverage: coverageAnswers } : {});
  const coverageFailed = coverage !== undefined && 'kind' in coverage ? coverage.reason : undefined;
  return {
    kind: 'judged',
    judgment: {
      claims: verdicts,
      ...(coverageAnswers ? { coverage: coverageAnswers } : {}),
      ...(coverageFailed !== undefined ? { coverageNoVerdict: coverageFailed } : {}),
      ...(empty ? { empty: true as const } : {}),
    },
  };
}

type Sampling = { readonly temperature: number; readonly maxTokens?: number };
/** One claim's label and reason, as the judge gives it. */
type Verdict = VerdictsAnswer['verdicts'][number];
type Tries = (seedOf: (k: number) => number) => number[];

/** Step 2: the claims' verdicts, by majority over the repeats. */
async function judgeClaims(
  generate: RoleGenerate,
  article: string,
  claims: readonly string[],
  rubrics: SummaryRubrics,
  settings: SummaryJudgeSettings,
  sampling: Sampling,
  tries: Tries,
): Promise<ClaimVerdict[] | Failed> {
  if (claims.length === 0) return [];
  const R = settings.repeats;
  const format = { type: 'json', name: 'verdicts', schema: VERDICTS_SCHEMA } as const;
  const askOnce = (rubric: Rubric, values: Record<string, string>, expected: number, step: string, repeat: number) =>
    askJudgeForJson(generate, {
      step,
      prompt: fillRubric({ rubric, values }),
      schema: verdictsAnswer,
      format,
      check: (v) => (v.verdicts.length === expected ? undefined : `${v.verdicts.length} verdicts for ${expected} claim(s)`),
      settings: sampling,
      seeds: tries((k) => settings.seed + repeat + R * k),
    });
  // One list of {label, reason} per repeat, in claim order.
  const perRepeat = await Promise.all(
    Array.from({ length: R }, async (_, r) => {
      const suffix = R > 1 ? `/repeat-${r + 1}` : '';
      if (settings.verdicts === 'batch') {
        const asked = await askOnce(rubrics.verdicts, { article, claims: JSON.stringify(claims) }, claims.length, `verdicts${suffix}`, r);
        return asked.kind === 'answer' ? asked.value.verdicts : (failed(asked) as Failed);
      }
      const each = await Promise.all(claims.map((claim, i) => askOnce(rubrics.verdictPerClaim, { article, claim }, 1, `verdicts/claim-${i + 1}${suffix}`, r)));
      const verdicts: Verdict[] = [];
      for (const asked of each) {
        if (asked.kind !== 'answer') return failed(asked) as Failed;
        verdicts.push(asked.value.verdicts[0] as Verdict);
      }
      return verdicts;
    }),
  );
  const errorRepeat = perRepeat.find((p): p is Failed => !Array.isArray(p) && p.kind === 'error');
  if (errorRepeat) return errorRepeat;
  const answered = perRepeat.filter((p): p is Verdict[] => Array.isArray(p));
  const firstNoVerdict = perRepeat.find((p): p is Failed => !Array.isArray(p));
  // No repeat gave a usable list: its own reason says more than a tally of nothing.
  if (answered.length === 0 && firstNoVerdict) return firstNoVerdict;
  const out: ClaimVerdict[] = [];
  for (const [i, claim] of claims.entries()) {
    const labels = answered.map((list) => list[i] as Verdict);
    const counts = new Map<ClaimLabel, number>();
    for (const { verdict } of labels) counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
    const [top, topCount] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['idk', 0];
    // A strict majority of all R repeats, unusable ones included (as a rubric judgment's vote, `judgeWithRubric`).
    if (topCount * 2 <= R) {
      const tally = [...counts.entries()].map(([label, n]) => `${label} ${n}`).join(', ') || 'none';
      const unusable = R - answered.length > 0 ? `, ${R - answered.length} unusable (${firstNoVerdict?.kind === 'no-verdict' ? firstNoVerdict.reason : ''})` : '';
      return { kind: 'no-verdict', reason: `claim ${i + 1}: no majority among ${R} verdict repeat(s) (${tally}${unusable})` };
    }
    const reason = labels.find((l) => l.verdict === top)?.reason ?? '';
    out.push({ claim, verdict: top, reason, ...(R > 1 ? { agreement: topCount / R } : {}) });
  }
  return out;
}

/** Step 3: coverage questions from the article, answered from each side; undefined when turned off. */
async function checkCoverage(
  generate: RoleGenerate,
  article: string,
  summary: string,
  empty: boolean,
  rubrics: SummaryRubrics,
  settings: SummaryJudgeSettings,
  sampling: Sampling,
  tries: Tries,
): Promise<CoverageAnswers | Failed | undefined> {
  const k = settings.coverageQuestions;
  if (k === 0) return undefined;
  const asked = await askJudgeForJson(generate, {
    step: 'coverage/questions',
    prompt: `${fillRubric({ rubric: rubrics.coverageQuestions, values: { article } })}\n\nWrite exactly ${k} questions.`,
    schema: questionsAnswer,
    format: { type: 'json', name: 'questions', schema: QUESTIONS_SCHEMA },
    check: (v) => (v.questions.length === k ? undefined : `${v.questions.length} questions where ${k} were asked for`),
    settings: sampling,
    seeds: tries((j) => settings.seed + j),
  });
  if (asked.kind !== 'answer') return failed(asked);
  const questions = asked.value.questions;
  const answerFrom = (text: string, side: string) =>
    askJudgeForJson(generate, {
      step: `coverage/answers-from-${side}`,
      prompt: fillRubric({ rubric: rubrics.coverageAnswers, values: { text, questions: JSON.stringify(questions) } }),
      schema: answersAnswer,
      format: { type: 'json', name: 'answers', schema: ANSWERS_SCHEMA },
      check: (v) => (v.answers.length === questions.length ? undefined : `${v.answers.length} answers for ${questions.length} questions`),
      settings: sampling,
      seeds: tries((j) => settings.seed + j),
    });
  // An empty summary says nothing: "idk" to every question, without a call.
  const nothingSaid = { kind: 'answer' as const, value: { answers: questions.map((): ClaimLabel => 'idk') } };
  const [fromArticle, fromSummary] = await Promise.all([answerFrom(article, 'article'), empty ? Promise.resolve(nothingSaid) : answerFrom(summary, 'summary')]);
  if (fromArticle.kind !== 'answer') return failed(fromArticle);
  if (fromSummary.kind !== 'answer') return failed(fromSummary);
  return { questions, fromArticle: fromArticle.value.answers, fromSummary: fromSummary.value.answers };
}
