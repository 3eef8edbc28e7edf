import { Worker } from 'node:worker_threads';

/**
 * What one persona's rendering may take. Jinja has loops, so a template is a program that can
 * run for ever (`{% for i in range(10000000) %}` took 129 s and 2.5 GB; nested loops more):
 * rendering runs in a worker thread held to these bounds. A real persona renders in well under a
 * millisecond into a few kilobytes, so the bounds are far from any honest template.
 */
export const TEMPLATE_BOUNDS = {
  /** Wall time of one rendering. */
  timeMs: 2000,
  /**
   * Wall time of all the renderings of one renderer (a resource's load: every template × row), so
   * that many rows each just under `timeMs` cannot hold a run for hours. An honest row renders in
   * ~0.1 ms, so this is some 600,000 rows; a resource that big would be refused, said so.
   */
  totalTimeMs: 60_000,
  /** Characters of one rendered persona (a prompt of ~250k tokens). */
  outputChars: 1024 * 1024,
  /** Items of one `range()`: the engine builds the whole list before looping. */
  rangeItems: 100_000,
  /** The worker's heap: what a loop growing a string or a list may hold. */
  memoryMb: 128,
} as const;

/** @internal the worker protocol */
export interface RenderRequest {
  readonly id: number;
  readonly source: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** @internal the worker protocol: the text, a bound passed (described), or the engine's error. */
export type RenderOutcome = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly bound: string } | { readonly ok: false; readonly message: string };

/** @internal the worker protocol */
export type RenderReply = { readonly id: number } & RenderOutcome;

/** A rendering stopped at one of {@link TEMPLATE_BOUNDS}; `message` says which, with its value. */
export class TemplateBoundError extends Error {
  override readonly name: string = 'TemplateBoundError';
}

/** The renderings together passed `totalTimeMs`: each row may have been well within its own bound. */
export class TemplateTotalTimeError extends TemplateBoundError {
  override readonly name = 'TemplateTotalTimeError';
  constructor(
    /** The bound, in ms. */
    readonly totalTimeMs: number,
    /** Renderings finished before it was passed. */
    readonly rendered: number,
  ) {
    super(`renderings took longer than the ${totalTimeMs / 1000} s all of a resource's personas may take together (${rendered} rendered)`);
  }
}

/** The time bounds a renderer keeps: {@link TEMPLATE_BOUNDS}'s, or tighter ones (tests). */
export interface TimeBounds {
  readonly timeMs: number;
  readonly totalTimeMs: number;
}

interface Pending {
  readonly resolve: (text: string) => void;
  readonly reject: (error: Error) => void;
  /** Set while the worker is on this rendering: renderings sent together are timed one at a time. */
  timer: NodeJS.Timeout | undefined;
  /** When its clock started (ms since the epoch). */
  startedAt: number;
}

/**
 * Renders persona templates in one worker thread, started once for a resource's load (tens of
 * milliseconds) and reused for every row (a message each way per persona; the rows of a template
 * are sent together and timed one at a time), rather than a thread per rendering. The main thread keeps the clock: a rendering
 * past the time bound, the renderings together past the total, or the run being stopped (`signal`: SIGINT/SIGTERM), terminates the worker
 * — a synchronous loop in the engine could not be interrupted otherwise, and in the main thread
 * it would keep the signal handlers from ever running. The heap bound is the worker's own
 * (`resourceLimits`); the output and `range()` bounds are checked inside it.
 */
export class TemplateRenderer {
  readonly #worker: Worker;
  readonly #ready: Promise<void>;
  #readyNow: { resolve: () => void; reject: (error: Error) => void } | undefined;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #failure: Error | undefined;
  readonly #bounds: TimeBounds;
  /** Time the renderings finished so far took, by the main thread's clock. */
  #spentMs = 0;
  #rendered = 0;

  constructor(
    private readonly signal?: AbortSignal,
    bounds: Partial<TimeBounds> = {},
  ) {
    this.#bounds = { timeMs: bounds.timeMs ?? TEMPLATE_BOUNDS.timeMs, totalTimeMs: bounds.totalTimeMs ?? TEMPLATE_BOUNDS.totalTimeMs };
    this.#worker = new Worker(new URL('./template-render-thread.js', import.meta.url), {
      workerData: { maxOutputChars: TEMPLATE_BOUNDS.outputChars, maxRangeItems: TEMPLATE_BOUNDS.rangeItems },
      resourceLimits: { maxOldGenerationSizeMb: TEMPLATE_BOUNDS.memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    // Never the reason the process stays alive: a pending rendering's timer is.
    this.#worker.unref();
    this.#ready = new Promise<void>((resolve, reject) => (this.#readyNow = { resolve, reject }));
    this.#ready.catch(() => undefined);
    this.#worker.on('message', (reply: RenderReply | 'ready') => this.#settle(reply));
    this.#worker.on('error', (error: Error & { code?: string }) => {
      this.#fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TemplateBoundError(`it needed more than the ${TEMPLATE_BOUNDS.memoryMb} MB of memory a rendering may use`) : error);
    });
    this.#worker.on('exit', () => this.#fail(new Error('the template worker ended')));
    signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /**
   * Renders `source` with `parameters`.
   * @throws TemplateBoundError past a bound; the signal's reason once stopped; Error with the
   *   engine's message when the template fails (an unknown filter, a type error).
   */
  async render(source: string, parameters: Readonly<Record<string, unknown>>): Promise<string> {
    if (this.signal?.aborted) throw this.signal.reason as Error;
    if (this.#failure) throw this.#failure;
    await this.#ready;
    if (this.#failure) throw this.#failure;
    const id = this.#next++;
    return new Promise<string>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, timer: undefined, startedAt: 0 });
      this.#worker.postMessage({ id, source, parameters } satisfies RenderRequest);
      this.#clockHead();
    });
  }

  /** Ends the worker. */
  async close(): Promise<void> {
    this.signal?.removeEventListener('abort', this.#onAbort);
    this.#failure ??= new Error('the template renderer is closed');
    await this.#worker.terminate();
  }

  readonly #onAbort = (): void => this.#fail(this.signal?.reason as Error);

  #settle(reply: RenderReply | 'ready'): void {
    if (reply === 'ready') return this.#readyNow?.resolve();
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    clearTimeout(pending.timer);
    this.#spentMs += Date.now() - pending.startedAt;
    if (reply.ok) this.#rendered++;
    this.#clockHead();
    if (reply.ok) pending.resolve(reply.text);
    else pending.reject('bound' in reply ? new TemplateBoundError(reply.bound) : new Error(reply.message));
  }

  /**
   * Starts the clock of the rendering the worker is on: the oldest pending (the worker answers in
   * order). It runs to the rendering's own bound, or to what is left of the total when that is less.
   */
  #clockHead(): void {
    const head = this.#pending.values().next().value;
    if (!head || head.timer !== undefined) return;
    const { timeMs, totalTimeMs } = this.#bounds;
    const left = totalTimeMs - this.#spentMs;
    const passed = (): TemplateBoundError =>
      left <= timeMs ? new TemplateTotalTimeError(totalTimeMs, this.#rendered) : new TemplateBoundError(`rendering took longer than the ${timeMs / 1000} s a persona may take`);
    head.startedAt = Date.now();
    head.timer = setTimeout(() => this.#fail(passed()), Math.max(0, Math.min(timeMs, left)));
  }

  /** Every rendering in flight (and any later) fails with `error`; the worker is ended. */
  #fail(error: Error): void {
    this.#failure ??= error;
    this.#readyNow?.reject(this.#failure);
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(this.#failure);
      this.#pending.delete(id);
    }
    void this.#worker.terminate();
  }
}
