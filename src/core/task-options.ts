/**
 * Options a run passes to its task, recorded with the run (so a resume and a re-score rebuild the
 * same samples). Each task reads the ones it understands and ignores the rest. Only what any task
 * may take is named here; a task's own options are declared by the task (`TaskOptionSpec` in
 * benchmarks/task.ts) and recorded in `task`, except the few MetaTool and FunctionChat declare
 * with `topLevel` (`perTool`, `shots`, `prompts`, `tools`, `embedder`, `benchVersion`): those ride
 * along as further keys of this object, where runs recorded them before tasks declared options,
 * and are typed by the benchmark that reads them (`MetaToolRunOptions`, `FunctionChatRunOptions`).
 */
export interface TaskOptions {
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
  /** A judged task's rubrics replaced by the user's own files, by rubric key (`--rubric call=my-call.txt`; FunctionChat, summaries, groundedness, harm, cases). */
  readonly rubrics?: Readonly<Record<string, string>>;
  /**
   * The options a task declares for itself (`Task.ownOptions`: e.g. summaries' `--articles`), by
   * key, as given; the task validates them. Absent for tasks that declare none.
   */
  readonly task?: Readonly<Record<string, string | number>>;
  /**
   * The declared options recorded at the top level (`TaskOptionSpec.topLevel`: MetaTool's
   * `perTool`, FunctionChat's `benchVersion`, …), by key: their benchmark reads them with its own
   * type (`MetaToolRunOptions`). Open so that the options keep the one layout every stored run has.
   */
  readonly [topLevelDeclared: string]: string | number | Readonly<Record<string, string | number>> | undefined;
}

/** The answer readings a task may offer (`--parser`). */
export type AnswerParserName = 'strict' | 'paper';
