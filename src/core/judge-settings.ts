/**
 * How a judge grades: the one judge-settings type. The run spec asks for it (with the judge's
 * model id), the run record keeps it (with whether the judge grades itself), and the judge
 * subsystem runs with it (with the run's seed, and a model-graded scorer also with the judge's
 * model id): each of those adds its field to this one.
 */
export interface JudgeSettings {
  /**
   * Independent judgments per output (`--judge-repeats`): a verdict is their strict majority, else
   * no verdict; a level on a scale is the strict-majority level, else their median with a tie taken
   * away from the defect (`metrics/severity.ts`).
   */
  readonly repeats: number;
  /** `text`: a rubric's own "pass/fail on the last line"; `json`: a reasons-first JSON verdict through structured output. */
  readonly format: 'text' | 'json';
  /** New calls (another seed) for an unusable answer before it counts as no verdict (`--judge-parse-retries`). */
  readonly maxParseRetries: number;
  /** Upstream FunctionChat-Bench grades at 0.1. */
  readonly temperature: number;
  readonly maxTokens?: number;
}

/** The settings a judgment runs with: the judge settings and the seed its calls start from (the run's). */
export type SeededJudgeSettings = JudgeSettings & {
  /** Base seed: repeat r's first call uses seed + r. */
  readonly seed: number;
};

/**
 * What a model-graded scorer is told of the run's judge: how it grades, the seed its calls start
 * from, and which model it is (for the scorer's messages; its calls go through the `generate` it is
 * handed, never to a model of its own).
 */
export type JudgeRunSettings = SeededJudgeSettings & {
  /** The judge's model id (`openai:gpt-4o`). */
  readonly model: string;
};

/** How a run's judge grades (the record's judge: its settings and model), with the seed its calls start from (the run's): for the run itself and for a re-score. */
export function judgeSettingsOf(seed: number, judge: JudgeSettings & { readonly model: string }): JudgeRunSettings {
  const { repeats, format, maxParseRetries, temperature, maxTokens } = judge;
  return { repeats, format, maxParseRetries, temperature, seed, ...(maxTokens !== undefined ? { maxTokens } : {}), model: judge.model };
}
