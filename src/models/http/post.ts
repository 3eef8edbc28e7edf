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
  const { signal } = request;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let statusCode = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    let unlisten: (() => void) | undefined;
    const settle = (): void => {
      unlisten?.();
      unlisten = undefined;
    };
    dispatcher.dispatch(
      { path: request.path, method: 'POST', headers: request.headers, body: request.body },
      {
        // May run again if undici retries the request on a fresh socket: listen once, for the latest controller.
        onRequestStart(controller) {
          if (signal.aborted) return controller.abort(signal.reason as Error);
          settle();
          unlisten = signal.listen(() => controller.abort(signal.reason as Error));
        },
        onResponseStart(_controller, status, responseHeaders) {
          statusCode = status;
          headers = responseHeaders;
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          settle();
          // Most answers arrive in one chunk: decoded where it lies, not copied into a new buffer first.
          resolve({ statusCode, headers, text: (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8') });
        },
        onResponseError(_controller, error) {
          settle();
          reject(error);
        },
      },
    );
  });
}
