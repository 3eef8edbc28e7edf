import { ModelCallError, describeError, type GenerateRequest, type GenerateResult } from '../../../core/index.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';

/** What the script is told about each call. */
export interface ScriptContext {
  readonly sampleId: string | undefined;
  /** 0-based position of this call among all calls to this provider. */
  readonly callIndex: number;
  /** 0-based position of this call among the calls for the same sample id (the attempt number, under retries). */
  readonly sampleCallIndex: number;
  /** The call's abort signal, for scripts that simulate slow answers. */
  readonly signal: AbortSignal;
}

/** A scripted answer: text, part of a result (the rest defaulted), or an error to fail the call with. */
export type ScriptedAnswer = string | Partial<GenerateResult> | Error;
export type ScriptFn = (request: GenerateRequest, context: ScriptContext) => ScriptedAnswer | Promise<ScriptedAnswer>;

export interface ScriptedProviderOptions {
  /** Model id; default `scripted:test`. */
  readonly id?: string;
  readonly respond: ScriptFn;
  /** Default false. */
  readonly cacheable?: boolean;
}

export interface ScriptedCall {
  readonly request: GenerateRequest;
  readonly sampleId: string | undefined;
}

export interface ScriptedProvider extends ModelProvider {
  /** Every call received, in order, including those that failed. */
  readonly calls: readonly ScriptedCall[];
}

/**
 * The error a call fails with when its signal aborts: the abort reason itself if it is a
 * `ModelCallError` (so a middleware can abort with its own `timeout` error), `timeout` for
 * `AbortSignal.timeout`, else `aborted`.
 */
function abortError(signal: AbortSignal, id: string): ModelCallError {
  const reason: unknown = signal.reason;
  if (reason instanceof ModelCallError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return new ModelCallError('timeout', `${id}: call timed out`);
  return new ModelCallError('aborted', `${id}: call aborted`);
}

/** Any failure of the script becomes a ModelCallError: scripted ones as they are, others as `server`. */
const asCallError = (error: unknown, id: string): ModelCallError =>
  error instanceof ModelCallError ? error : new ModelCallError('server', `${id}: ${describeError(error)}`);

function toResult(answer: string | Partial<GenerateResult>): GenerateResult {
  if (typeof answer === 'string') return { text: answer, toolCalls: [], finishReason: { unified: 'stop' }, usage: {}, warnings: [] };
  const toolCalls = answer.toolCalls ?? [];
  return {
    ...answer,
    text: answer.text ?? '',
    toolCalls,
    finishReason: answer.finishReason ?? { unified: toolCalls.length > 0 ? 'tool-calls' : 'stop' },
    usage: answer.usage ?? {},
    warnings: answer.warnings ?? [],
  };
}

/**
 * `scripted:`: a provider whose answers come from a function, for tests and library users.
 * Records every call in `calls`. A `ModelCallError` the script returns or throws fails the call
 * as is (so tests can script 429s, timeouts…); any other error becomes a `server` error. The call
 * also fails when its signal aborts, even if the script has not settled.
 */
export function createScriptedProvider(options: ScriptedProviderOptions): ScriptedProvider {
  const id = options.id ?? 'scripted:test';
  const calls: ScriptedCall[] = [];
  const callsPerSample = new Map<string | undefined, number>();
  return {
    specVersion: 'v1',
    id,
    cacheable: options.cacheable ?? false,
    calls,
    async generate(request: GenerateRequest, callOptions: GenerateOptions): Promise<GenerateResult> {
      const { signal, sampleId } = callOptions;
      const callIndex = calls.length;
      const sampleCallIndex = callsPerSample.get(sampleId) ?? 0;
      calls.push({ request, sampleId });
      callsPerSample.set(sampleId, sampleCallIndex + 1);
      if (signal.aborted) throw abortError(signal, id);

      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_resolve, reject) => {
        onAbort = () => reject(abortError(signal, id));
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const answer = await Promise.race([
          Promise.resolve().then(() => options.respond(request, { sampleId, callIndex, sampleCallIndex, signal })),
          aborted,
        ]);
        if (answer instanceof Error) throw answer;
        return toResult(answer);
      } catch (error) {
        throw asCallError(error, id);
      } finally {
        if (onAbort) signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
