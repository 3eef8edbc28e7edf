/**
 * Aborts a call's own controller when a long-lived signal (the run's) aborts, without touching that
 * signal per call. `AbortSignal.any` leaves a WeakRef in the source signal for every composite
 * (retained for the rest of the run on Node 20), and `addEventListener`/`removeEventListener` on an
 * `EventTarget` cost ~3 µs each on Node 20; here each long-lived signal gets one listener, the
 * first time it is linked, and a call only joins and leaves a `Set` (docs/benchmarks.md).
 */
const linked = new WeakMap<AbortSignal, Set<Abortable>>();

/** What a call's own abort is: an `AbortController`, or an attempt's `AttemptAbort`. */
export interface Abortable {
  abort(reason?: unknown): void;
}

/**
 * Aborts `controller` (with the signal's reason) when `signal` aborts, at once if it has already.
 * Returns the unlink to call when the call ends (idempotent).
 */
export function linkAbort(signal: AbortSignal, controller: Abortable): () => void {
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => undefined;
  }
  let controllers = linked.get(signal);
  if (!controllers) {
    const set = new Set<Abortable>();
    controllers = set;
    linked.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        // Copied first: a controller's own abort listeners may end calls, which unlink themselves.
        for (const c of [...set]) c.abort(signal.reason);
        set.clear();
      },
      { once: true },
    );
  }
  const own = controllers;
  own.add(controller);
  return () => void own.delete(controller);
}
