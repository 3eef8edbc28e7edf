import { findTask } from '../benchmarks/registry.js';
import type { AnswerParserName, TaskOptions } from '../benchmarks/task.js';
import type { RunRecord, SampleRange } from '../store/records.js';
import type { Store } from '../store/store.js';
import { summaryPageSamples } from './summary.js';

/** The parser a task options object selects (the default reading is strict). */
export const parserOf = (options: TaskOptions): AnswerParserName => options.parser ?? 'strict';

/**
 * The parsers the stored scores of a run were made with, by count, read from the scores' own
 * `metadata.parser` (awareness scores carry it, and selection scores read with the paper's rules;
 * a score that names none was read the default, strict way). Empty for a task that offers no
 * answer parsers (nothing to choose, so nothing to note). The store is read a page of results'
 * facts at a time (no outputs), as the summary reads it.
 */
export async function parsersInScores(store: Store, run: RunRecord): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if ((findTask(run.task).answerParsers ?? []).length === 0) return counts;
  const pageSamples = summaryPageSamples(run.models.length, run.repeats ?? 1);
  for (let from = 0; ; from += pageSamples) {
    const range: SampleRange = { from, limit: pageSamples };
    const facts = await store.resultFacts(run.id, range);
    for (const { score } of facts) {
      if (!score) continue;
      const named = score.metadata?.['parser'];
      const parser = typeof named === 'string' ? named : 'strict';
      counts.set(parser, (counts.get(parser) ?? 0) + 1);
    }
    // The end: past the run's samples, or (a record without their count) at a page with none.
    if (run.sampleCount !== undefined ? from + pageSamples >= run.sampleCount : facts.length === 0 && (await store.sampleFacts(run.id, range)).length === 0) return counts;
  }
}
