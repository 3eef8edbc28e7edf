import type { AbortWatch } from '../http/abort-watch.js';
import type { GenerateOptions } from '../spec.js';

/**
 * One attempt's abort (by its timeout or by the run's signal, `linkAbort`), without an
 * `AbortController` unless a provider reads `signal`: a provider that listens through the
 * `AbortWatch` (the OpenAI-compatible one) costs the attempt a plain object, not an `EventTarget`
 * and its listener map. The signal, when read, is made at once with the attempt's state and
 * aborted with it after; listeners are told before the signal, in the order they listened.
 */
export class AttemptAbort implements AbortWatch {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | undefined;
  private controller: AbortController | undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts with `reason` (with an `AbortError`, as `AbortController.abort` does, when none). */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    // As an EventTarget does: a listener that throws does not keep the others from being told; its error is reported after.
    if (listeners) {
      for (const onAbort of listeners) {
        try {
          onAbort();
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    }
    this.controller?.abort(this.reason);
  }

  listen(onAbort: () => void): () => void {
    if (this.aborted) return () => undefined;
    (this.listeners ??= []).push(onAbort);
    return () => {
      const at = this.listeners?.indexOf(onAbort) ?? -1;
      if (at !== -1) this.listeners?.splice(at, 1);
    };
  }
}

/**
 * An attempt's `GenerateOptions`: its abort, and the `signal` made from it only when a provider
 * reads it. A class, so that the getter is the prototype's: an object literal with a getter of
 * its own gets a hidden class of its own from V8, every time (~1 µs and ~0.4 KB per attempt on
 * Node 20 against ~0.03 µs: docs/benchmarks.md, issue 29, branch `promote`).
 */
export class AttemptOptions implements GenerateOptions {
  constructor(
    readonly abort: AttemptAbort,
    readonly sampleId: string,
  ) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }
}
