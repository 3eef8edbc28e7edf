import type { GenerateRequest, GenerateResult } from '../core/index.js';
import type { AbortWatch } from './http/abort-watch.js';

export interface GenerateOptions {
  readonly signal: AbortSignal;
  /**
   * The same abort as `signal`, heard without an `EventTarget`: the middleware gives it, and makes
   * `signal` only when a provider reads it (see `AttemptAbort`). A provider that listens to its
   * request's abort reads this one when given.
   */
  readonly abort?: AbortWatch;
  /** The sample this call belongs to (replay looks outputs up by it; LLM providers ignore it). */
  readonly sampleId?: string;
}

/**
 * The provider contract, version 1. A provider only translates between the core shapes and one
 * wire format; retries, caching, rate limits, timeouts and accounting live in the middleware
 * (`models/middleware`), never here. Failures are thrown as `ModelCallError`.
 */
export interface ModelProvider {
  readonly specVersion: 'v1';
  /** The full model id, `provider:model`. */
  readonly id: string;
  /** Whether identical requests may be answered from the call cache (false for replay/baselines). */
  readonly cacheable: boolean;
  /** False for providers that cost nothing to call (replay, baselines): their cost is 0, not unknown. */
  readonly billed?: boolean;
  /**
   * The sample ids a provider has outputs for, when it can answer no others (replay: the ids of
   * its file). A run checks them against its samples before it is recorded, so a file made for
   * other samples is refused up front instead of ending as one error per sample.
   */
  readonly sampleIds?: readonly string[];
  /**
   * What the provider sends that must never be stored or shown: its keys and secret header
   * values. The middleware (`Model`) redacts them, and those of every other model of the run,
   * from each output and error after the provider decoded it.
   */
  readonly secrets?: readonly string[];
  generate(request: GenerateRequest, options: GenerateOptions): Promise<GenerateResult>;
  close?(): Promise<void>;
}
