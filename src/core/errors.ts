/**
 * A problem with what the user gave us (a flag, a file, a line of a file). The CLI prints
 * `message` as one line and exits non-zero; it never prints a stack for these.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(message: string, readonly details?: { file?: string; line?: number }) {
    super(message);
  }
}

/** Why a model call failed, in groups the retry policy and the reports understand. */
export type CallErrorKind =
  | 'rate-limit' // 429: retried, honouring Retry-After
  | 'server' // 5xx: retried
  | 'timeout' // no answer in time: retried
  | 'network' // connection refused/reset: retried
  | 'bad-request' // 4xx other than 401/403/404/408/429: not retried
  | 'auth' // 401/403: not retried
  | 'not-found' // 404 (a model or endpoint that does not exist): not retried
  | 'bad-response' // 2xx whose body we cannot read: retried once like a server error
  | 'missing-output' // replay file has no line for this sample
  | 'unsupported' // the provider cannot answer this kind of request
  | 'target' // an application target (http/module/exec) gave no usable answer: not retried
  | 'aborted'; // the run was stopped

export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  constructor(
    readonly kind: CallErrorKind,
    message: string,
    readonly extra: { status?: number; retryAfterMs?: number; body?: string } = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.kind === 'rate-limit' || this.kind === 'server' || this.kind === 'timeout' || this.kind === 'network' || this.kind === 'bad-response';
  }
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
