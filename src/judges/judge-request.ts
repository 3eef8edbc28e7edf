/**
 * What a task asks of the judge subsystem for one output: a rubric (a data file) and the values of
 * its `{placeholders}`. The task never fills the rubric itself: the judge subsystem fences every
 * value (they are all untrusted text: model outputs and dataset rows) so that no value can close
 * its fence or forge a verdict line, and it records the rubric's id and sha256 with the judgment.
 */
export interface Rubric {
  /** Stable id, e.g. `functionchat/v2.0.0/call`. */
  readonly id: string;
  /** Where it was read from (shown in errors). */
  readonly source: string;
  /** The template text with `{name}` placeholders, as shipped. */
  readonly template: string;
  readonly sha256: string;
}

export interface JudgeRequest {
  readonly rubric: Rubric;
  /** One value per placeholder of the template; all are treated as untrusted text. */
  readonly values: Readonly<Record<string, string>>;
}
