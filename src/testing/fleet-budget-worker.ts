import { Redis } from 'ioredis';
import { FleetBudget } from '../runner/fleet-budget.js';
import { startRun } from '../runner/run.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { totalSpend } from '../store/spend.js';

/**
 * One worker of a fleet sharing a `--max-cost` through Redis, as a child process for
 * `test/e2e/fleet-budget.services.test.ts`: a MetaTool run on a loopback server whose budget is
 * a `FleetBudget` under a spend key every worker of the test names (`fleetRun`), standing in for
 * the one run a queue's workers share. Prints `{run, status, spentUsd}` as JSON.
 */
interface WorkerArgs {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly fleetRun: string;
  readonly serverUrl: string;
  readonly db: string;
  readonly dataDir: string;
  readonly capUsd: number;
  readonly samples: number;
  readonly concurrency: number;
  readonly maxTokens: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as WorkerArgs;
const MODEL = 'openai:fleet-priced';
const redis = new Redis(args.redisUrl, { maxRetriesPerRequest: null });
const store = await openSqliteStore(args.db);
try {
  const summary = await startRun(
    {
      task: 'metatool/similar',
      models: [MODEL],
      seed: args.maxTokens,
      options: { perTool: 1, limit: args.samples },
      settings: { maxTokens: args.maxTokens },
      dataDir: args.dataDir,
      engine: {
        concurrency: args.concurrency,
        timeoutMs: 10_000,
        retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
        cache: false,
        openaiBaseURL: args.serverUrl,
        prices: { [MODEL]: { inputPerMillion: 1, outputPerMillion: 2 } },
        maxCostUsd: args.capUsd,
      },
    },
    {
      store,
      secrets: { openaiApiKey: 'sk-fleet-test' },
      budgets: (run) => FleetBudget.open(redis, { ...run, runId: args.fleetRun, prefix: args.prefix }),
    },
  );
  const spentUsd = totalSpend(await store.runSpend(summary.run)).usd;
  process.stdout.write(`${JSON.stringify({ run: summary.run, status: summary.status, spentUsd })}\n`);
} finally {
  await store.close();
  await redis.quit();
}
