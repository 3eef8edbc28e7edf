import net from 'node:net';

/** Requests this process has sent to each service so far (see `countRoundTrips`). */
export interface RoundTrips {
  readonly postgres: number;
  readonly redis: number;
  /** Writes to Redis, each counted: ioredis writes a command (or a pipeline, a MULTI's commands) at a time. */
  readonly redisWrites: number;
}

const lastTurn = Symbol('assay.lastWriteTurn');
type Marked = net.Socket & { [lastTurn]?: number };

/**
 * Counts, client-side, the requests this process sends to PostgreSQL and Redis (told apart by the
 * socket's remote port), for `npm run bench:scale`. node-postgres writes a query's parse, bind,
 * execute and sync messages one by one, and ioredis a pipeline at once; so the writes one turn of
 * the event loop makes to one socket count as one request. Both protocols answer every request,
 * so requests are the round trips (requests sent together on one connection in one turn, which
 * wait for their answers together, count once); Redis's writes are also counted one by one
 * (`redisWrites`: its commands, a pipeline one). Connection set-up writes made before the socket
 * is connected are not counted. Measurement only: it wraps `net.Socket.prototype.write`.
 */
export function countRoundTrips(ports: { readonly postgres: number; readonly redis: number }): () => RoundTrips {
  let postgres = 0;
  let redis = 0;
  let redisWrites = 0;
  let turn = 0;
  let turnScheduled = false;
  const nextTurn = (): void => {
    turn++;
    turnScheduled = false;
  };
  const original = net.Socket.prototype.write;
  net.Socket.prototype.write = function (this: Marked, ...args: Parameters<typeof original>): boolean {
    const port = this.remotePort;
    if (port === ports.redis) redisWrites++;
    if ((port === ports.postgres || port === ports.redis) && this[lastTurn] !== turn) {
      this[lastTurn] = turn;
      if (port === ports.postgres) postgres++;
      else redis++;
      if (!turnScheduled) {
        turnScheduled = true;
        setImmediate(nextTurn);
      }
    }
    return original.apply(this, args);
  } as typeof original;
  return () => ({ postgres, redis, redisWrites });
}

/** The ports of a PostgreSQL and a Redis URL (their defaults when a URL gives none). */
export function servicePorts(postgresUrl: string, redisUrl: string): { readonly postgres: number; readonly redis: number } {
  return { postgres: Number(new URL(postgresUrl).port || 5432), redis: Number(new URL(redisUrl).port || 6379) };
}
