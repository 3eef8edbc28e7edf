import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import { InputError } from '../core/index.js';
import { parseBaseURL } from '../models/http/base-url.js';
import { resolveDataDir } from '../datasets/data-dir.js';
import { DEFAULT_QUEUE_NAME, queueLocation } from '../queue/queue-location.js';
import { openStore } from '../store/open-store.js';
import { parseStoreUrl, redactStoreUrl } from '../store/store-url.js';
import { nonNegativeInt, positiveInt } from './options.js';
import { EXIT, dbOption, retryNoticeFromEnv } from './shared.js';
import { printErr } from './terminal.js';
import { configFrom, configOption } from './config-file.js';

interface WorkerFlags {
  queue: string;
  queueName: string;
  db: string;
  concurrency: number;
  dataDir?: string;
  apiKeyEnv?: string;
  baseUrl?: string;
  maxRetryWait?: number;
  config?: string;
}

/**
 * `assay worker`: takes units of queued runs until SIGINT/SIGTERM. The first signal takes no new
 * unit and lets the calls in flight finish and be stored; a unit waiting to retry (a Retry-After, a
 * back-off) stops waiting and goes back on the queue, its attempt unspent. A second signal quits at
 * once (the units in flight are then stalled, and another worker takes them once their locks lapse).
 */
async function workerCommand(flags: WorkerFlags): Promise<number> {
  const location = queueLocation(flags.queue, flags.queueName);
  if (parseStoreUrl(flags.db).backend !== 'postgres') throw new InputError(`assay worker needs the fleet's shared store: give --db postgres://…; ${redactStoreUrl(flags.db)} is a SQLite file on this machine`);
  let openaiApiKey: string | undefined;
  if (flags.apiKeyEnv) {
    openaiApiKey = process.env[flags.apiKeyEnv];
    if (!openaiApiKey) throw new InputError(`--api-key-env ${flags.apiKeyEnv}: that environment variable is not set`);
  }
  // This worker's own endpoint, checked before anything starts; a run's recorded URL is never called.
  if (flags.baseUrl !== undefined) parseBaseURL('--base-url', flags.baseUrl, 'http://127.0.0.1:8000/v1');
  // This worker's own declarations: a queued run's model names are built from them, never from the run.
  const config = await configFrom(flags.config);
  const dataDir = flags.dataDir ? resolveDataDir({ flag: flags.dataDir }).dir : undefined;
  // BullMQ and ioredis are loaded by the worker command alone, not by every CLI start.
  const [{ checkRedis }, { startUnitWorker }] = await Promise.all([import('../redis/connect.js'), import('../queue/unit-worker.js')]);
  await checkRedis(location.url, '--queue');
  const store = await openStore(flags.db);
  const worker = await startUnitWorker({
    store,
    queue: location,
    concurrency: flags.concurrency,
    ...(dataDir ? { dataDir } : {}),
    ...(config ? { config } : {}),
    ...(openaiApiKey ? { secrets: { openaiApiKey } } : {}),
    ...(flags.baseUrl !== undefined ? { openaiBaseURL: flags.baseUrl } : {}),
    ...(flags.maxRetryWait !== undefined ? { engine: { maxRetryWaitMs: flags.maxRetryWait * 1000 } } : {}),
    ...retryNoticeFromEnv(),
    onNote: (line) => printErr(`${line}\n`),
  });
  printErr(`worker ${hostname()}:${process.pid} on queue ${location.name} (db ${redactStoreUrl(flags.db)}), ${flags.concurrency} units at a time\n`);
  const signalled = new Promise<void>((resolve) => {
    const onSignal = (): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const quit = (): never => process.exit(EXIT.interrupted);
      process.on('SIGINT', quit);
      process.on('SIGTERM', quit);
      printErr('stopping: no new units; calls in flight finish and are stored, units waiting to retry go back on the queue (signal again to quit at once)…\n');
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  await signalled;
  try {
    await worker.close();
  } finally {
    await store.close();
  }
  printErr('worker stopped\n');
  return EXIT.ok;
}

export function registerWorkerCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('worker')
    .description('take units of queued runs (assay run … --queue) from Redis and store their results in the shared PostgreSQL store')
    .requiredOption('--queue <url>', 'the Redis the runs were queued on: redis://[user:password@]host:6379[/db]')
    .addOption(new Option('--queue-name <name>', 'the queue to take units from').default(DEFAULT_QUEUE_NAME))
    .addOption(new Option('-c, --concurrency <n>', 'units this worker works on at once (each model\'s own --concurrency still caps its calls)').default(8).argParser(positiveInt('--concurrency')))
    .addOption(new Option('--data-dir <dir>', 'data folder to rebuild tasks from (default: the one each run recorded)'))
    .addOption(new Option('--api-key-env <var>', 'read the OpenAI-compatible endpoint\'s API key from this variable (default OPENAI_API_KEY); keys come from this worker\'s environment, never from the run'))
    .addOption(new Option('--base-url <url>', 'the OpenAI-compatible endpoint this worker\'s openai: models call (default: $OPENAI_BASE_URL or https://api.openai.com/v1); never a URL from the run'))
    .addOption(
      new Option('--max-retry-wait <seconds>', "the longest wait a server may ask for (Retry-After) that is waited, replacing each run's own (default: the run's, else 120); a longer ask ends the call as a rate-limit error").argParser(
        nonNegativeInt('--max-retry-wait'),
      ),
    )
    .addOption(configOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      '\nA queued run\'s declared model names (no ":") are built from this worker\'s own config file, with its endpoints and keys, never\n' +
        'from the run record; a declaration that differs from the one the run recorded (by hash) is each of its units\' error, naming\n' +
        'the field, and nothing is called.\n\n' +
        'Each unit (one sample on one model) is recorded exactly once: a unit that has a result is acknowledged without a call, a\n' +
        'failed attempt is retried (3 attempts) and only the last one\'s error is recorded, and the units of a worker killed with -9\n' +
        'go to another once their locks lapse (30 s; ASSAY_QUEUE_LOCK_MS). The worker that records a run\'s last unit marks it finished.\n\n' +
        'A run\'s --rpm/--tpm and --max-cost hold over the whole fleet: every worker keeps each model\'s limits and the run\'s spend in\n' +
        'this Redis (a 429 with Retry-After holds all of them). Sizing: docs/scale-out.md.\n\n' +
        'Endpoints are the worker\'s own, like its keys: openai: models call --base-url, else OPENAI_BASE_URL, else api.openai.com\n' +
        '(anthropic: and gemini: their own variables), never a URL a run names. A run recording a base URL other than this\n' +
        'worker\'s (made by an earlier assay, or written by hand) is refused: each of its units ends in a worker error naming\n' +
        'engine.openaiBaseURL, and nothing is called.\n\n' +
        'SIGINT/SIGTERM: no new units, calls in flight finish and are stored, units waiting to retry (Retry-After, back-off) go\n' +
        'back on the queue at once, their attempts unspent; a second signal quits at once.\n\n' +
        'Example:\n  assay worker --queue redis://10.0.0.5:6379 --db postgres://assay@10.0.0.6/assay --concurrency 16',
    )
    .action(async (flags: WorkerFlags) => setExitCode(await workerCommand(flags)));
}
