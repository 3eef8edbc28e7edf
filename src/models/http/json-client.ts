import { Pool } from './undici-pool.js';
import { InputError, ModelCallError } from '../../core/index.js';
import { errorFromAbort, errorFromTransport } from './call-errors.js';
import { postForText, type PostResponse } from './post.js';
import { watchOf, type AbortWatch } from './abort-watch.js';

export const DEFAULT_CONNECTIONS = 64;

export interface JsonClientOptions {
  /** `scheme://host:port`: the connection pool's key. */
  readonly origin: string;
  /** Sent with every request (content type, keys): built once, never mutated. */
  readonly headers: Readonly<Record<string, string>>;
  /** Keep-alive sockets (default 64); concurrency itself is the middleware's. */
  readonly connections?: number;
  /** Scrubs secrets from every response body and error message. */
  readonly redact: (text: string) => string;
  /** The provider id, for the "closed" message. */
  readonly label: string;
}

export interface JsonClient {
  /**
   * POSTs `payload` to `path` and returns the whole answer, body already redacted. Transport
   * failures and aborts are thrown as `ModelCallError`s; HTTP statuses are the caller's to judge.
   * `url` is the (redacted) address used in messages. `headers`, when given, are sent instead of
   * the client's own for this request (a target whose header values are read at call time).
   * `signal` may be the middleware's `AbortWatch` (`GenerateOptions.abort`), cheaper than a signal.
   */
  post(path: string, payload: string, signal: AbortSignal | AbortWatch, url: string, headers?: Readonly<Record<string, string>>): Promise<PostResponse>;
  close(): Promise<void>;
}

/**
 * The HTTP plumbing every JSON-over-HTTP provider shares: one undici `Pool` with keep-alive
 * (several times less CPU per request than global `fetch`), `pipelining: 1` so a slow answer
 * never holds up another, the whole body always read (an unread body would pin the socket).
 */
export function createJsonClient(options: JsonClientOptions): JsonClient {
  const connections = options.connections ?? DEFAULT_CONNECTIONS;
  if (!Number.isInteger(connections) || connections < 1) {
    throw new InputError(`${options.label}: connections must be a positive integer, got ${String(connections)}`);
  }
  const pool = new Pool(options.origin, { connections, pipelining: 1 });
  const headers = { ...options.headers };
  let closed = false;
  return {
    async post(path, payload, given, url, callHeaders) {
      const signal = given instanceof AbortSignal ? watchOf(given) : given;
      if (signal.aborted) throw errorFromAbort(signal);
      if (closed) throw new ModelCallError('aborted', `provider ${options.label} is closed`);
      try {
        const response = await postForText(pool, { path, headers: (callHeaders as Record<string, string> | undefined) ?? headers, body: payload, signal });
        return { statusCode: response.statusCode, headers: response.headers, text: options.redact(response.text) };
      } catch (error) {
        throw errorFromTransport(error, signal, url, options.redact);
      }
    },
    /** Waits for calls in flight (the middleware aborts them on stop), then closes the sockets. */
    async close() {
      if (closed) return;
      closed = true;
      await pool.close();
    },
  };
}
