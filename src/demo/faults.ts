// What a loopback server can do instead of answering: the tests' fault plans (src/testing/fault-plan.ts)
// choose them; the demo's server never faults.

/** What the fake server does instead of answering normally. */
export type Fault =
  | {
      readonly type: 'status';
      /** Usually 429, 500, 503, 400 or 401; any status is sent as given. */
      readonly status: number;
      /** Sent verbatim as the `Retry-After` header (seconds or an HTTP date). */
      readonly retryAfter?: string;
      /** Sent as the `retry-after-ms` header. */
      readonly retryAfterMs?: number;
      /** Response body, verbatim; default: an OpenAI-style `{"error":{…}}` JSON. */
      readonly body?: string;
    }
  /** Accept the request and never answer, until the client gives up or the server closes. */
  | { readonly type: 'hang' }
  /** Destroy the socket without answering. */
  | { readonly type: 'reset' }
  /** 200 with a body that is not JSON. */
  | { readonly type: 'bad-json' };

export type FaultType = Fault['type'];

/** What a fault (or answer) decision may depend on: everything is deterministic per key and attempt. */
export interface FaultContext {
  /** Content of the last user message: tests identify samples by it. */
  readonly key: string;
  /** 1-based count of requests seen with this key, this one included. */
  readonly attemptForKey: number;
  /** 0-based count of requests the server has seen, across keys. */
  readonly index: number;
}
