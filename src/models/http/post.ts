import type { Dispatcher } from 'undici';
import type { AbortWatch } from './abort-watch.js';

export interface PostResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The whole body, decoded as UTF-8. */
  readonly text: string;
}

/**
 * POSTs a body and reads the whole answer through undici's low-level `dispatch`, collecting the
 * body chunks directly. Measured here at ~45 µs less CPU per request than `pool.request` (which
 * wraps every body in a Readable stream): at thousands of calls a second that is a large share of
 * the toolkit's own cost. Errors and aborts reject with what undici reports (or the signal's
 * reason); mapping them to `ModelCallError` is the provider's job.
 */
export function postForText(
  dispatcher: Dispatcher,
  request: { readonly path: string; readonly headers: Record<string, string>; readonly body: string; readonly signal: AbortWatch },
): Promise<PostResponse> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch({ path: request.path, method: 'POST', headers: request.headers, body: request.body }, new TextHandler(request.signal, resolve, reject));
  });
}

/**
 * What undici tells of one request, gathered into its `PostResponse`: one object per request, its
 * methods on the prototype (an object literal of closures cost five closures a call).
 */
class TextHandler implements Dispatcher.DispatchHandler {
  private readonly chunks: Buffer[] = [];
  private statusCode = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private unlisten: (() => void) | undefined = undefined;

  constructor(
    private readonly signal: AbortWatch,
    private readonly resolve: (response: PostResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  private settle(): void {
    this.unlisten?.();
    this.unlisten = undefined;
  }

  // May run again if undici retries the request on a fresh socket: listen once, for the latest controller.
  onRequestStart(controller: Dispatcher.DispatchController): void {
    const { signal } = this;
    if (signal.aborted) return controller.abort(signal.reason as Error);
    this.settle();
    this.unlisten = signal.listen(() => controller.abort(signal.reason as Error));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>): void {
    this.statusCode = status;
    this.headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.settle();
    const { chunks } = this;
    // Most answers arrive in one chunk: decoded where it lies, not copied into a new buffer first.
    this.resolve({ statusCode: this.statusCode, headers: this.headers, text: (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8') });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.settle();
    this.reject(error);
  }
}
