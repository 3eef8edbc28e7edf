import { buildSamples, type Sample } from '../core/index.js';
import { foldRows } from '../benchmarks/metrics-fold.js';
import type { Metrics, MetricsFold, PreparedTask, ScoredSample, Task } from '../benchmarks/task.js';

/**
 * The scale benchmark's task: `options.limit` tiny samples ("pick one of these tools: …" with
 * one right answer), so that memory measured at 100,000 samples is the engine's and the store's,
 * not a data set's. The bench server answers each from its prompt (`syntheticAnswer`), right for
 * four samples in five; the score is an exact match, so the metrics of two paths can be compared.
 */
export const SYNTHETIC_TASK_NAME = 'perf/synthetic';

const TOOLS = ['WeatherNow', 'FlightFinder', 'RecipeBox', 'StockTicker', 'NewsDigest', 'MapRoute', 'Translate', 'Calendar'];

function sampleAt(index: number): Sample {
  const right = TOOLS[index % TOOLS.length] as string;
  return {
    id: `s${String(index).padStart(6, '0')}`,
    input: [{ role: 'user', content: `Sample ${index}. Which tool answers "${right.toLowerCase()} please"? Tools: ${TOOLS.join(', ')}.` }],
    target: right,
    metadata: {},
  };
}

/** What the bench server answers to a synthetic prompt: the right tool, except for every fifth sample. */
export function syntheticAnswer(prompt: string): string {
  const index = Number(/^Sample (\d+)\./.exec(prompt)?.[1] ?? 0);
  const right = TOOLS[index % TOOLS.length] as string;
  return index % 5 === 4 ? (TOOLS[(index + 1) % TOOLS.length] as string) : right;
}

export const syntheticTask: Task = {
  name: SYNTHETIC_TASK_NAME,
  version: '1',
  description: 'synthetic tool choice for the scale benchmark (not a benchmark of models)',
  defaultSettings: { temperature: 0 },
  async prepare(context): Promise<PreparedTask> {
    const count = context.options.limit ?? 1000;
    return {
      // Built on demand: a run holds the samples in flight, not 100,000 of them.
      samples: buildSamples(count, sampleAt),
      datasetChecksums: {},
      promptVersion: '1',
      score: (sample, output) => ({ value: output.text.trim() === sample.target ? 1 : 0, answer: output.text.trim() }),
    };
  },
  metrics: (rows) => foldRows(accuracyFold(), rows),
  metricsFold: accuracyFold,
};

/** The share of right answers among the scored samples, counted a row at a time. */
function accuracyFold(): MetricsFold {
  let scored = 0;
  let right = 0;
  return {
    add(row: ScoredSample) {
      if (typeof row.score?.value !== 'number') return;
      scored++;
      right += row.score.value;
    },
    finish: (): Metrics => ({ accuracy: scored === 0 ? null : right / scored, scored }),
  };
}
