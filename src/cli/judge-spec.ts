import { findTask } from '../benchmarks/registry.js';
import { defaultJudgeSpec, type JudgeSpec } from '../runner/run-spec.js';
import type { RunRecord } from '../store/records.js';

/** The judge settings of `assay run`'s flags (`--judge-repeats`, `--judge-format` …): absent, each its default. */
export interface JudgeFlags {
  /** Absent: the task's default (`Task.defaultJudgeRepeats`, harm 5), else 1. */
  judgeRepeats?: number;
  judgeFormat?: 'text' | 'json';
  judgeTemperature?: number;
  judgeMaxTokens?: number;
  judgeParseRetries?: number;
}

/**
 * The judge a run of `task` asks for, its model named by `--judge` or a suite's `judge:`, its
 * settings from the flags: one reading for `assay run TASK` and every entry of `assay run --suite`.
 */
export function judgeSpecOf(model: string, task: string, flags: JudgeFlags): JudgeSpec {
  return {
    model,
    repeats: flags.judgeRepeats ?? findTask(task).defaultJudgeRepeats ?? defaultJudgeSpec.repeats,
    format: flags.judgeFormat ?? defaultJudgeSpec.format,
    maxParseRetries: flags.judgeParseRetries ?? defaultJudgeSpec.maxParseRetries,
    temperature: flags.judgeTemperature ?? defaultJudgeSpec.temperature,
    ...(flags.judgeMaxTokens !== undefined ? { maxTokens: flags.judgeMaxTokens } : {}),
  };
}

/**
 * The judge flags a suite run was started with, as its member runs recorded them: what `assay
 * resume <suite-run>` gives the entries that never started, so they grade as the others did.
 * The record keeps repeats, not whether they were asked for: a member whose repeats differ from
 * its task's default had `--judge-repeats` (the others then take it too); otherwise each entry
 * takes its own task's default. None judged: no flags (the defaults).
 */
export function judgeFlagsRecorded(members: readonly RunRecord[]): JudgeFlags {
  const judged = members.filter((r) => r.judge !== null && r.judge !== undefined);
  const first = judged[0]?.judge;
  if (!first) return {};
  const asked = judged.find((r) => r.judge && r.judge.repeats !== (findTask(r.task).defaultJudgeRepeats ?? defaultJudgeSpec.repeats))?.judge;
  return {
    ...(asked ? { judgeRepeats: asked.repeats } : {}),
    judgeFormat: first.format,
    judgeTemperature: first.temperature,
    judgeParseRetries: first.maxParseRetries,
    ...(first.maxTokens !== undefined ? { judgeMaxTokens: first.maxTokens } : {}),
  };
}
