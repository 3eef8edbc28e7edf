import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Server-side counters read before and after a measured run, to give round trips per sample: the
 * PostgreSQL database's committed transactions (`pg_stat_database`, flushed first) and the Redis
 * server's processed commands (`INFO stats`). Server-wide: run the bench on a quiet machine.
 */
export interface ServiceCounters {
  readonly pgTransactions: number;
  readonly redisCommands: number;
}

export async function readServiceCounters(postgresUrl: string, redisUrl: string): Promise<ServiceCounters> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  let pgTransactions = 0;
  try {
    // Statistics reach pg_stat_database when a backend flushes them (PostgreSQL 15+: at most a second late; this forces this one's).
    await client.query('SELECT pg_stat_force_next_flush()').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const row = await client.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
    pgTransactions = Number(row.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const info = await redis.info('stats');
    const redisCommands = Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
    return { pgTransactions, redisCommands };
  } finally {
    redis.disconnect();
  }
}
