// One measured path of `npm run bench:targets`, in a fresh process: MetaTool samples through `Model`
// (the middleware: cache key and lookup in an in-memory store, semaphore, timeout, accounting) and
// scoring, with the model being either the OpenAI provider or an `http` target that renders the
// same chat-completions body from its Jinja template and reads the reply with JMESPath. Prints one
// JSON line. argv: path (`openai` | `http`), samples, server URL, data dir, concurrency.
import { findTask } from '../benchmarks/registry.js';
import { Model } from '../models/middleware/model.js';
import { createProvider, createTargetProvider } from '../models/registry.js';
import type { ModelProvider } from '../models/spec.js';
import { requestFor } from '../runner/sample-work.js';
import { scoreSafely } from '../benchmarks/score-safely.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { benchSampleOptions } from './sample-options.js';
import { measurePool } from './measured-pool.js';

const [path, samplesArg, url, dataDir, concurrencyArg] = process.argv.slice(2);
const samples = Number(samplesArg);
const concurrency = Number(concurrencyArg ?? 64);
if (path !== 'openai' && path !== 'http') throw new Error(`unknown path ${path}`);

/** The chat-completions body the OpenAI provider sends for these requests, as a target's template writes it. */
const OPENAI_SHAPED_BODY = '{"model": {{ model | tojson }}, "messages": {{ messages | tojson }}, "temperature": {{ settings.temperature | tojson }}}';

const prepared = await findTask('metatool/similar').prepare({ dataDir: dataDir as string, seed: 1, options: benchSampleOptions(samples) });
const settings = { temperature: 0 };
const provider: ModelProvider =
  path === 'openai'
    ? await createProvider('openai:bench-model', { seed: 1, connections: concurrency, openaiBaseURL: url as string })
    : await createTargetProvider({
        kind: 'http',
        name: 'bench-model',
        url: `${url as string}/chat/completions`,
        body: OPENAI_SHAPED_BODY,
        output: 'choices[0].message.content',
        usage: 'usage',
        connections: concurrency,
      });
const store = await openSqliteStore(':memory:');
const model = new Model({ provider, settings: { concurrency, timeoutMs: 30_000, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 }, cache: true }, cache: store });

/** One sample: asked through the middleware, scored; then, like the runner's worker, a turn of the event loop. */
async function one(index: number): Promise<boolean> {
  const sample = prepared.samples.at(index);
  if (!sample) throw new Error(`no sample ${index}`);
  const outcome = await model.generate(requestFor(sample, settings), { sampleId: sample.id });
  if (!outcome.output) return false;
  scoreSafely(prepared, sample, outcome.output);
  await new Promise((resolve) => setImmediate(resolve));
  return true;
}

const figures = await measurePool(prepared.samples.length, concurrency, one);
await Promise.all([model.close(), store.close()]);
process.stdout.write(`${JSON.stringify({ path, samples: prepared.samples.length, ...figures })}\n`);
