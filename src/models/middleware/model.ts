import { canonicalJson, describeError, ModelCallError, sha256, withFields, type GenerateRequest, type GenerateSettings, type GenerateResult, type Usage } from '../../core/index.js';
import { approxInputTokens } from './token-estimate.js';
import type { GenerateOptions, ModelProvider } from '../spec.js';
import { costOf, type Price } from '../pricing.js';
import type { EngineSettings } from '../../core/engine-settings.js';
import { systemClock, type Clock } from './clock.js';
import { inProcessLimiters, type Limiter, type LimiterFactory } from './limiter.js';
import { DEFAULT_MAX_RETRY_WAIT_MS, defaultRetryPolicy, describeWait, RETRY_NOTICE_MS, retryDelay } from './retry-policy.js';
import { Semaphore } from './semaphore.js';
import { linkAbort } from './abort-link.js';
import { AttemptAbort, AttemptOptions } from './attempt-abort.js';
import { RunSecrets } from '../http/redact-secrets.js';

/** The engine settings the middleware of a model reads (declared once, `engineSettingsSchema`). */
const MODEL_SHARE = ['concurrency', 'requestsPerMinute', 'tokensPerMinute', 'timeoutMs', 'retry', 'maxRetryWaitMs', 'cache'] as const;

/** What the middleware of one model works with: its share of the run's engine settings, and what is its own. */
export type ModelSettings = Pick<EngineSettings, (typeof MODEL_SHARE)[number]> & {
  /** Waits before a retry from this long on are told once per model (default 5 s). */
  readonly retryNoticeMs?: number;
  readonly price?: Price;
  /**
   * The model's own sampling settings (a config file's `params`): they replace the run's in every
   * request this model is sent, so the cache key and the call say what the model was really asked.
   */
  readonly params?: GenerateSettings;
};

/**
 * A model's settings: its share of the run's engine settings (only that: the endpoint, which may
 * carry credentials, and the run-wide settings stay with the run) and its own.
 */
export function modelSettingsOf(engine: EngineSettings, own: Pick<ModelSettings, 'retryNoticeMs' | 'price'> = {}): ModelSettings {
  const share: Record<string, unknown> = {};
  for (const key of MODEL_SHARE) if (engine[key] !== undefined) share[key] = engine[key];
  return withFields(share as Pick<EngineSettings, (typeof MODEL_SHARE)[number]>, own);
}

export const defaultModelSettings: ModelSettings = { concurrency: 8, timeoutMs: 120_000, retry: defaultRetryPolicy, cache: true };

/** Where the middleware looks up cached outputs; the store implements it. */
export interface CallCache {
  lookupCache(cacheKey: string): Promise<GenerateResult | undefined>;
}

export interface Attempt {
  readonly attempt: number;
  readonly startedAt: string;
  readonly latencyMs: number;
  readonly output: GenerateResult | null;
  readonly error: { kind: string; message: string; status?: number } | null;
  readonly costUsd: number | null;
}

/** Everything one logical call produced. `output` and `error` are exclusive; neither throws. */
export interface CallOutcome {
  readonly output: GenerateResult | null;
  readonly error: { kind: string; message: string; status?: number } | null;
  readonly cached: boolean;
  readonly cacheKey: string | null;
  readonly attempts: readonly Attempt[];
  /** Latency of the successful attempt (0 for a cache hit). */
  readonly latencyMs: number;
  readonly usage: Usage;
  readonly costUsd: number | null;
}

export interface CallContext {
  readonly sampleId: string;
  /** Aborts the call: the request in flight and any wait. */
  readonly signal?: AbortSignal;
  /**
   * Ends the call's waits (a retry's sleep, a rate limit's hold) but not a request in flight: the
   * graceful first Ctrl-C, which lets calls in flight finish but has nothing to wait for. Give it
   * with `signal` folded in (`AbortSignal.any`, once per run rather than per call); default `signal`.
   */
  readonly waitSignal?: AbortSignal;
}

/**
 * The call cache's key of a request to a model (see `Model.cacheKey`): sha256 of the model id and
 * the canonical request as a model sees it (messages, tools, settings, response format; not the
 * reference hints). Exported so a re-score can answer a model-graded scorer from the cache alone.
 */
export function callCacheKey(modelId: string, request: GenerateRequest): string {
  const { messages, tools, settings, responseFormat } = request;
  return sha256(`${modelId}\n${canonicalJson({ messages, tools, settings, responseFormat })}`);
}

/** What a `Model` is made of: the provider, its settings, and where its calls' state lives. */
export interface ModelOptions {
  readonly provider: ModelProvider;
  readonly settings: ModelSettings;
  /** Where cached outputs are looked up (the store); none: every call is made. */
  readonly cache?: CallCache;
  readonly clock?: Clock;
  /** The retries' jitter. */
  readonly random?: () => number;
  /** Where the requests/tokens-per-minute limits live: in this process by default; `RedisLimiters` shares them with a fleet. */
  readonly limiters?: LimiterFactory;
  /** Told once per model when a retry waits long (see `ModelSettings.retryNoticeMs`). */
  readonly onNotice?: (message: string) => void;
  /**
   * What no output or error may hold — the provider's own are added; a run passes one set to all
   * its models so that each is redacted of every key the run sends.
   */
  readonly secrets?: RunSecrets;
}

/**
 * A provider wrapped in the cross-cutting middleware, the same for every provider: call cache,
 * concurrency limit, requests/tokens-per-minute limits, per-attempt timeout, bounded retries with
 * exponential backoff + jitter honouring Retry-After, and token/cost accounting. It never throws
 * for a failed call: the failure is returned as data so that it is recorded, never stored as output.
 */
export class Model {
  private readonly semaphore: Semaphore;
  private readonly requestLimiter?: Limiter;
  private readonly tokenLimiter?: Limiter;
  /** The calls in flight by cache key (single flight); an entry is removed as its call ends. */
  private readonly inFlight = new Map<string, Promise<CallOutcome>>();
  /** Whether a long wait before a retry has been told (once per model). */
  private waitTold = false;

  readonly provider: ModelProvider;
  readonly settings: ModelSettings;
  private readonly cache: CallCache | undefined;
  private readonly clock: Clock;
  private readonly random: () => number;
  /** Told once per model when a retry waits long (see `ModelSettings.retryNoticeMs`). */
  private readonly onNotice: (message: string) => void;
  private readonly secrets: RunSecrets;

  constructor(options: ModelOptions) {
    const { provider, settings, clock = systemClock, limiters = inProcessLimiters } = options;
    this.provider = provider;
    this.settings = settings;
    this.cache = options.cache;
    this.clock = clock;
    this.random = options.random ?? Math.random;
    this.onNotice = options.onNotice ?? (() => undefined);
    this.secrets = options.secrets ?? new RunSecrets();
    this.secrets.add(provider.secrets);
    this.semaphore = new Semaphore(settings.concurrency);
    if (settings.requestsPerMinute) this.requestLimiter = limiters({ modelId: provider.id, kind: 'requests', perMinute: settings.requestsPerMinute }, clock);
    if (settings.tokensPerMinute) this.tokenLimiter = limiters({ modelId: provider.id, kind: 'tokens', perMinute: settings.tokensPerMinute }, clock);
  }

  get id(): string {
    return this.provider.id;
  }

  /**
   * The cache key of a request for this model (null when the provider is not cacheable): sha256
   * of the canonical request as a model sees it. Reference hints are left out: they are not sent
   * to a model, and the providers that read them (baselines) are not cached. The response format
   * is in (the same prompt asked for free text and for a JSON schema answers differently); a
   * request without one hashes exactly as before it existed, since undefined members are dropped.
   */
  cacheKey(request: GenerateRequest): string | null {
    return this.provider.cacheable ? callCacheKey(this.provider.id, request) : null;
  }

  /**
   * One logical call: answered from the call cache, or by an identical call already in flight
   * (single flight: a request with the same cache key made while another is being answered waits
   * for that one instead of paying for it again, and is told as a cache hit: no attempt of its
   * own, no cost), else made with retries. With the cache off (`--no-cache`) every call is its
   * own: the user asked for each request to reach the model (sampling again at a temperature).
   */
  generate(given: GenerateRequest, context: CallContext): Promise<CallOutcome> {
    // Not an async function: a call made at once (the cache off) returns `call`'s own promise,
    // not one resolved with it (two microtask turns and a promise less per call).
    let request: GenerateRequest;
    let cacheKey: string | null;
    try {
      const params = this.settings.params;
      request = params ? withFields(given, { settings: withFields(given.settings, params) }) : given;
      cacheKey = this.cacheKey(request);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    if (!cacheKey || !this.settings.cache) return this.call(request, context, cacheKey);
    return this.shared(request, context, cacheKey);
  }

  /** The call of a cacheable request with the cache on: a cache hit, a call in flight joined, or its own. */
  private async shared(request: GenerateRequest, context: CallContext, cacheKey: string): Promise<CallOutcome> {
    const leader = this.inFlight.get(cacheKey);
    if (leader) {
      const shared = await leader;
      if (shared.output) return cacheHit(shared.output, cacheKey);
      // A stop that ended the shared call's waits ends this one's too (asking again would pay after a Ctrl-C).
      if (shared.error?.kind === 'aborted') return withFields(shared, { attempts: [] });
      // Another error is not shared, as it is not cached: this call makes its own (or joins the next one in flight).
      return this.generate(request, context);
    }
    const own = this.lookupThenCall(request, context, cacheKey);
    this.inFlight.set(cacheKey, own);
    try {
      return await own;
    } finally {
      // Finished entries are not kept: the map holds only the calls in flight (the store's cache answers later ones).
      if (this.inFlight.get(cacheKey) === own) this.inFlight.delete(cacheKey);
    }
  }

  private async lookupThenCall(request: GenerateRequest, context: CallContext, cacheKey: string): Promise<CallOutcome> {
    if (this.cache) {
      // Redacted again: a store written before redaction followed JSON decoding may hold a key.
      const stored = await this.cache.lookupCache(cacheKey);
      const hit = stored && this.secrets.redactValue(stored);
      if (hit) return cacheHit(hit, cacheKey);
    }
    return this.call(request, context, cacheKey);
  }

  /**
   * The request made, retried as the policy says: every attempt is kept. A server's Retry-After
   * beyond `maxRetryWaitMs` is not waited (a day's wait would hold the run without a word): the
   * call ends with that error, saying how long was asked. A wait ended by the run's stop ends the
   * call as `aborted`: a stop has nothing to wait for, and the sample is left for resume.
   */
  private async call(request: GenerateRequest, context: CallContext, cacheKey: string | null): Promise<CallOutcome> {
    const attempts: Attempt[] = [];
    const waits = context.waitSignal ?? context.signal;
    const maxWait = this.settings.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    for (let attempt = 1; ; attempt++) {
      const { output, error, latencyMs, startedAt } = await this.attemptOnce(request, context, waits);
      const costUsd = !output ? null : this.provider.billed === false ? 0 : costOf(this.settings.price, output.usage);
      const asked = error instanceof ModelCallError ? error.extra.retryAfterMs : undefined;
      const tooLong = asked !== undefined && asked > maxWait;
      const described = error ? this.redacted(describeCallError(error)) : null;
      // A 429 says the provider's limit is reached for everyone sharing it, not just this call
      // (a wait too long to honour holds nobody: the limit only slows down).
      if (error instanceof ModelCallError && error.kind === 'rate-limit') this.backOff(tooLong ? undefined : asked);
      attempts.push({ attempt, startedAt, latencyMs, output, error: described, costUsd });
      if (output) {
        return { output, error: null, cached: false, cacheKey, attempts, latencyMs, usage: output.usage, costUsd };
      }
      const wait = context.signal?.aborted ? undefined : retryDelay(error, attempt, this.settings.retry, this.random);
      if (wait === undefined || !described) return failedOutcome(described, cacheKey, attempts);
      if (tooLong) {
        return failedOutcome(withFields(described, { message: `the server asked to wait ${describeWait(asked)} before retrying, more than --max-retry-wait ${describeWait(maxWait)}: not waited (${described.message})` }), cacheKey, attempts);
      }
      if (waits?.aborted) return failedOutcome({ kind: 'aborted', message: 'run stopped before retrying' }, cacheKey, attempts);
      this.tellLongWait(wait, asked !== undefined, described);
      try {
        await this.clock.sleep(wait, waits);
      } catch {
        return failedOutcome({ kind: 'aborted', message: 'run stopped while waiting to retry' }, cacheKey, attempts);
      }
    }
  }

  /** A wait long enough to look like a hang is said, once per model. */
  private tellLongWait(wait: number, asked: boolean, error: { kind: string; message: string; status?: number }): void {
    if (this.waitTold || wait < (this.settings.retryNoticeMs ?? RETRY_NOTICE_MS)) return;
    this.waitTold = true;
    const why = `${error.status !== undefined ? `${error.status} ` : ''}${error.kind}`;
    this.onNotice(`${this.id}: waiting ${describeWait(wait)} before retrying (${why}${asked ? ', as the server asked' : ''}); told once per model`);
  }

  private async attemptOnce(request: GenerateRequest, context: CallContext, waits: AbortSignal | undefined): Promise<{ output: GenerateResult | null; error: unknown; latencyMs: number; startedAt: string }> {
    // No promise awaited for what does not wait: a free slot, no limiter.
    const release = this.semaphore.tryAcquire() ?? (await this.semaphore.acquire());
    try {
      if (this.requestLimiter) await this.requestLimiter.take(1, waits);
      if (this.tokenLimiter) await this.tokenLimiter.take(estimateTokens(request), waits);
      // One abort per attempt, by its timeout or by the run's signal (`linkAbort`, not
      // `AbortSignal.any`: see abort-link.ts); its `AbortSignal` is made only if the provider reads it.
      const timeout = new AttemptAbort();
      let timedOut: ModelCallError | undefined;
      const timer = setTimeout(() => {
        timedOut = new ModelCallError('timeout', `no answer within ${this.settings.timeoutMs} ms`);
        timeout.abort(timedOut);
      }, this.settings.timeoutMs);
      const unlink = context.signal ? linkAbort(context.signal, timeout) : undefined;
      const options: GenerateOptions = new AttemptOptions(timeout, context.sampleId);
      const startedAt = new Date().toISOString();
      const started = this.clock.now();
      try {
        // The one point where decoded provider text (outputs, tool-call arguments, the raw body)
        // enters what is stored and shown: redacted here, after every JSON escape was decoded.
        const output = this.secrets.redactValue(await this.provider.generate(request, options));
        const latencyMs = this.clock.now() - started;
        if (this.tokenLimiter && output.usage.outputTokens) this.tokenLimiter.charge(output.usage.outputTokens);
        return { output, error: null, latencyMs, startedAt };
      } catch (error) {
        const reason = timedOut ?? error;
        return { output: null, error: reason, latencyMs: this.clock.now() - started, startedAt };
      } finally {
        clearTimeout(timer);
        unlink?.();
      }
    } catch (error) {
      // The run was aborted while waiting for a slot in the rate limiter.
      return { output: null, error, latencyMs: 0, startedAt: new Date().toISOString() };
    } finally {
      release();
    }
  }

  /** An error as stored and shown: its message (the provider's decoded text) redacted of the run's secrets. */
  private redacted(error: { kind: string; message: string; status?: number }): { kind: string; message: string; status?: number } {
    const message = this.secrets.redact(error.message);
    return message === error.message ? error : withFields(error, { message });
  }

  private backOff(retryAfterMs: number | undefined): void {
    this.requestLimiter?.backOff(retryAfterMs);
    this.tokenLimiter?.backOff(retryAfterMs);
  }

  async close(): Promise<void> {
    await Promise.all([this.requestLimiter?.close?.(), this.tokenLimiter?.close?.()]);
    await this.provider.close?.();
  }
}

function failedOutcome(error: CallOutcome['error'], cacheKey: string | null, attempts: readonly Attempt[]): CallOutcome {
  return { output: null, error, cached: false, cacheKey, attempts, latencyMs: 0, usage: {}, costUsd: null };
}

/** An answer that cost this call nothing: from the call cache, or shared with an identical call in flight. */
function cacheHit(output: GenerateResult, cacheKey: string): CallOutcome {
  return { output, error: null, cached: true, cacheKey, attempts: [], latencyMs: 0, usage: output.usage, costUsd: 0 };
}

function describeCallError(error: unknown): { kind: string; message: string; status?: number } {
  if (error instanceof ModelCallError) {
    return error.extra.status !== undefined ? { kind: error.kind, message: error.message, status: error.extra.status } : { kind: error.kind, message: error.message };
  }
  if (error instanceof DOMException && error.name === 'AbortError') return { kind: 'aborted', message: 'run stopped' };
  return { kind: 'unexpected', message: describeError(error) };
}

/** A cheap guess of a request's tokens for the TPM limiter: its input, plus the most it may answer. */
function estimateTokens(request: GenerateRequest): number {
  return approxInputTokens(request) + (request.settings.maxTokens ?? 0);
}
