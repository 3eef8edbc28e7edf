/**
 * What a request needs of its abort: whether it happened, why, and to be told once when it does.
 * An `AbortSignal` is adapted to it (`watchOf`); the middleware hands providers a cheaper one for
 * each attempt (`AttemptAbort`, `GenerateOptions.abort`): on Node 20 an `AbortController` and the
 * first listener on its fresh signal cost ~6 µs per attempt, measured (docs/benchmarks.md).
 */
export interface AbortWatch {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Calls `onAbort` once when the abort happens (never if it did already: check `aborted` first). Returns the unlisten. */
  listen(onAbort: () => void): () => void;
}

/** A signal as an `AbortWatch`: listened with `addEventListener`, unlistened with `removeEventListener`. */
export function watchOf(signal: AbortSignal): AbortWatch {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason(): unknown {
      return signal.reason;
    },
    listen(onAbort) {
      signal.addEventListener('abort', onAbort, { once: true });
      return () => signal.removeEventListener('abort', onAbort);
    },
  };
}
