/**
 * Options a run passes to its task, recorded with the run (so a resume and a re-score rebuild the
 * same samples). Each task reads the ones it understands and ignores the rest.
 */
export interface TaskOptions {
  /** Queries drawn per tool (MetaTool similar / scenario / reliability). */
  readonly perTool?: number;
  /** Number of in-context examples: 0 or 5. */
  readonly shots?: 0 | 5;
  /** `assay`: prompts rebuilt by assay with shuffled candidates; `upstream`: the shipped prompt files byte for byte. */
  readonly prompts?: 'assay' | 'upstream';
  /** How answers are read, for tasks that declare `answerParsers` (MetaTool: `strict`, assay's own rules, or `paper`, the paper's answer matching). */
  readonly parser?: AnswerParserName;
  /** Keep only the first N samples in the task's order (after the task's own seeded selection). */
  readonly limit?: number;
  /**
   * A seeded sample of N of the task's samples (by the run's seed), in proportion to each category
   * where the task's samples have one (`Task.categoryKey`), kept in the task's order; applied by
   * the runner to every task alike. Never with `limit`.
   */
  readonly sample?: number;
  /** Data + rubric + system prompt version of a benchmark that ships several (FunctionChat: `v2.0.0`, `paper-2024-09`). */
  readonly benchVersion?: string;
  /** A judged task's rubrics replaced by the user's own files, by output type (`--rubric call=my-call.txt`). */
  readonly rubrics?: Readonly<Record<string, string>>;
  /** metatool/similar on a user's own tool set: path of the tools file (`--tools my-tools.json`). */
  readonly tools?: string;
  /**
   * The options a task declares for itself (`Task.ownOptions`: e.g. summaries' `--articles`), by
   * key, as given; the task validates them. Absent for tasks that declare none.
   */
  readonly task?: Readonly<Record<string, string | number>>;
  /** With `tools`: what ranks the nearest tools — `lexical` (BM25, the default) or an embedding model id (`local:./emb.gguf`). */
  readonly embedder?: string;
}

/** The answer readings a task may offer (`--parser`). */
export type AnswerParserName = 'strict' | 'paper';

