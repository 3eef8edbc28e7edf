import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startRun } from '../runner/run.js';
import type { RunSummary } from '../analysis/summary.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Fault } from './fault-plan.js';
import type { RecordedRequest } from '../demo/loopback-server.js';
import { answerMetaToolPrompt, shownTools } from './metatool-answerer.js';
import { testDataDir } from './test-data.js';

/** A native provider's faulted MetaTool run: what differs between providers. */
export interface FaultedRunCheck {
  /** The model id, whose provider reads its base URL and key from the environment. */
  readonly model: string;
  readonly seed: number;
  readonly samples: number;
  /** Where the store goes; checked afterwards for the key. */
  readonly dir: string;
  readonly apiKey: string;
  /** The loopback server the provider talks to (answering with `answerMetaToolPrompt`). */
  readonly requests: readonly RecordedRequest[];
  /** The fault the server injects on a prompt's first attempt, if any. */
  readonly faultFor: (prompt: string) => Fault | undefined;
  /** The provider's canonical finish reason for a plain answer. */
  readonly finishReason: { readonly unified: string; readonly raw: string };
  /** The least time between a 429 and its retry that honours what the server asked for. */
  readonly minRetryGapMs: number;
  /** The status the server sends for the plan's server errors (529 for Anthropic, 503 for Gemini). */
  readonly serverErrorStatus: number;
}

/**
 * Runs MetaTool through a native provider against its faulting loopback server and checks what
 * every such run must show: every sample scored, the stored outputs exactly the model's (never an
 * error body), one failed then one answered attempt for each faulted sample, a 429's retry no
 * sooner than asked, the metrics from the answers, and the key nowhere in the store's files.
 * Returns the summary for the provider's own checks of what went over the wire.
 */
export async function runFaultedMetaTool(check: FaultedRunCheck): Promise<RunSummary> {
  const store = await openSqliteStore(join(check.dir, 'run.db'));
  const summary = await startRun(
    {
      task: 'metatool/similar',
      models: [check.model],
      seed: check.seed,
      options: { perTool: 1, limit: check.samples },
      dataDir: testDataDir(),
      engine: { concurrency: 8, timeoutMs: 15_000, retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 100 }, cache: true },
    },
    { store },
  );
  const counts = summary.models[check.model]?.counts;
  assert.equal(counts?.done, check.samples);
  assert.equal(counts?.errors, 0);

  const samples = await store.loadSamples(summary.run);
  const results = await store.results(summary.run);
  let expectedCorrect = 0;
  let faulted = 0;
  for (const sample of samples) {
    const prompt = sample.input[0]?.content ?? '';
    const result = results.find((r) => r.sampleId === sample.id);
    assert.equal(result?.status, 'done');
    assert.equal(result?.output?.text, answerMetaToolPrompt(prompt), 'the stored output is what the model said, never an error body');
    assert.deepEqual(result?.output?.finishReason, check.finishReason);
    const named = shownTools(prompt).find((t) => answerMetaToolPrompt(prompt) === `I would use ${t} for this query.`);
    if (named === sample.target) expectedCorrect++;
    const calls = await store.calls(summary.run, sample.id);
    const fault = check.faultFor(prompt);
    if (fault?.type === 'status') {
      faulted++;
      assert.equal(calls.length, 2, `${sample.id}: one faulted attempt, then one answered`);
      assert.equal(calls[0]?.error?.kind, fault.status === 429 ? 'rate-limit' : 'server');
      assert.equal(calls[1]?.error, null);
      if (fault.status === 429) {
        // Measured on the server's clock: the retry came no sooner than the server asked.
        const attempts = check.requests.filter((r) => r.key === prompt);
        assert.ok((attempts[1]?.receivedAt ?? 0) - (attempts[0]?.finishedAt ?? 0) >= check.minRetryGapMs, `${sample.id}: the asked wait was honoured`);
      }
    } else {
      assert.equal(calls.length, 1);
    }
  }
  assert.ok(faulted >= 10, `the plan hit ${faulted} samples`);
  assert.equal(summary.models[check.model]?.metrics['csr'], expectedCorrect / check.samples);
  assert.ok(check.requests.some((r) => r.status === 429) && check.requests.some((r) => r.status === check.serverErrorStatus));
  await store.close();
  for (const file of readdirSync(check.dir)) assert.ok(!readFileSync(join(check.dir, file)).includes(check.apiKey), `${file} must not contain the key`);
  return summary;
}
