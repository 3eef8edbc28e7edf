// The floor under `npm run bench`'s ratio on this machine: the same MetaTool requests against the
// same server at the same concurrency, through less and less of assay, in a fresh process. Prints
// one JSON line. Layers (argv[2]):
//   http       undici alone POSTing each request's chat-completions body (no assay code at all)
//   provider   the OpenAI-compatible provider (wire body, undici, response parsing)
//   engine     + the middleware (`Model`: cache key and lookup, semaphore, timeout, accounting)
//              and scoring, with an in-memory store for the cache: the whole call phase but its
//              store writes (no setup, no summary)
import { Pool } from 'undici';
import { findTask } from '../benchmarks/registry.js';
import { benchSampleOptions } from './sample-options.js';
import { Model } from '../models/middleware/model.js';
import { createProvider } from '../models/registry.js';
import { requestFor } from '../runner/sample-work.js';
import { scoreSafely } from '../benchmarks/score-safely.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { measurePool } from './measured-pool.js';

const [layer, samplesArg, url, dataDir, concurrencyArg] = process.argv.slice(2);
const samples = Number(samplesArg);
const concurrency = Number(concurrencyArg ?? 64);
if (layer !== 'http' && layer !== 'provider' && layer !== 'engine') throw new Error(`unknown layer ${layer}`);

const prepared = await findTask('metatool/similar').prepare({ dataDir: dataDir as string, seed: 1, options: benchSampleOptions(samples) });
const settings = { temperature: 0 };
const provider = await createProvider('openai:bench-model', { seed: 1, connections: concurrency, openaiBaseURL: url as string });
const store = await openSqliteStore(':memory:');
const model = new Model({ provider, settings: { concurrency, timeoutMs: 30_000, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 }, cache: true }, cache: store });
const base = new URL(url as string);
const pool = new Pool(base.origin, { connections: concurrency });
const path = `${base.pathname.replace(/\/$/, '')}/chat/completions`;

/** One sample through the chosen layer; resolves when its answer is read (and, for `engine`, scored). */
async function one(index: number): Promise<boolean> {
  const sample = prepared.samples.at(index);
  if (!sample) throw new Error(`no sample ${index}`);
  const request = requestFor(sample, settings);
  if (layer === 'http') {
    const body = JSON.stringify({ model: 'bench-model', messages: request.messages, temperature: 0 });
    const response = await pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json' }, body });
    JSON.parse(await response.body.text());
    return response.statusCode === 200;
  }
  if (layer === 'provider') {
    await provider.generate(request, { signal: new AbortController().signal, sampleId: sample.id });
    return true;
  }
  const outcome = await model.generate(request, { sampleId: sample.id });
  if (!outcome.output) return false;
  scoreSafely(prepared, sample, outcome.output);
  // The runner's worker takes its next sample at the next check phase (a setImmediate; it waited
  // for its group commit there until 2026-11-28); so does this one, so that the layers differ by
  // the store's work only. (Sending the next request from
  // inside each answer's callback instead measured ~0.04 worse in ratio.)
  await new Promise((resolve) => setImmediate(resolve));
  return true;
}

const figures = await measurePool(prepared.samples.length, concurrency, one);
await Promise.all([pool.close(), model.close(), store.close()]);
process.stdout.write(`${JSON.stringify({ layer, samples: prepared.samples.length, ...figures })}\n`);
