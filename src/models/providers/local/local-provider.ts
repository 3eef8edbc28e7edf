import type { ChatModelFunctions, LLamaChatGenerateResponseOptions, LlamaChatResponse, LlamaGrammar, Token } from 'node-llama-cpp';
import { InputError, ModelCallError, describeError, visibleControls, type GenerateRequest, type GenerateResult, type ToolCall, type Warning } from '../../../core/index.js';
import type { ModelProvider } from '../../spec.js';
import { convertToLlamaHistory } from './convert-to-llama-history.js';
import { abortError, acquireEngine, releaseEngine, type EngineSettings, type LlamaEngine } from './llama-engine.js';
import { mapLlamaStopReason } from './map-stop-reason.js';
import { parseLocalModelRef } from './model-ref.js';
import { checkedToolCall, toolCallFromGrammarText } from './parse-tool-call.js';
import { resolveModelFile, type ResolveModelFileOptions } from './resolve-model-file.js';
import { toGrammarSchema, toolCallGrammarSchema } from './to-grammar-schema.js';
import { validateJson } from './validate-json.js';

export type ToolMode = 'auto' | 'native' | 'grammar';

export const DEFAULT_MAX_TOKENS = 1024;

export interface LocalProviderOptions {
  /** What follows `local:` in the model id: a path, or `hf:<owner>/<repo>/<file.gguf>`. */
  readonly model: string;
  /** CPU threads (default: env `ASSAY_LOCAL_THREADS`, else 1 on CPU — see docs/local-models.md). */
  readonly threads?: number;
  /** Parallel sequences (default: env `ASSAY_LOCAL_SEQUENCES`, else 1: a FIFO queue). */
  readonly sequences?: number;
  /** Context tokens per sequence (default: env `ASSAY_LOCAL_CONTEXT`, else the model's, capped at 4096). */
  readonly contextSize?: number;
  /** Default: env `ASSAY_LOCAL_GPU` (`false` to force the CPU), else `auto`. */
  readonly gpu?: 'auto' | false;
  /** `auto`: the template's own function calling when it has one, else the grammar mode. */
  readonly toolMode?: ToolMode;
  /**
   * Output cap when a request sets no `maxTokens` (default 1024): a local model that never emits its
   * end token would otherwise fill the whole context on every call.
   */
  readonly defaultMaxTokens?: number;
  /** For `local:hf:` ids: cache dir, hub endpoint, progress. */
  readonly download?: ResolveModelFileOptions;
}

/** Reads a positive integer from an option or an environment variable; a bad value is an InputError. */
function positiveInteger(value: number | string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`${name} must be a positive integer, got ${String(value)}`);
  return n;
}

export function engineSettingsFrom(options: LocalProviderOptions, env: NodeJS.ProcessEnv = process.env): EngineSettings {
  const gpuEnv = env['ASSAY_LOCAL_GPU'];
  if (gpuEnv !== undefined && gpuEnv !== '' && gpuEnv !== 'auto' && gpuEnv !== 'false') throw new InputError(`ASSAY_LOCAL_GPU must be "auto" or "false", got "${gpuEnv}"`);
  return {
    gpu: options.gpu ?? (gpuEnv === 'false' ? false : 'auto'),
    threads: positiveInteger(options.threads ?? env['ASSAY_LOCAL_THREADS'], 'local threads (ASSAY_LOCAL_THREADS)'),
    contextSize: positiveInteger(options.contextSize ?? env['ASSAY_LOCAL_CONTEXT'], 'local context size (ASSAY_LOCAL_CONTEXT)'),
    sequences: positiveInteger(options.sequences ?? env['ASSAY_LOCAL_SEQUENCES'], 'local sequences (ASSAY_LOCAL_SEQUENCES)') ?? 1,
  };
}

/** Progress on stderr, at most one line per 10%, for a hub download started by the CLI. */
function stderrProgress(): NonNullable<ResolveModelFileOptions['onProgress']> {
  let shown = -1;
  return ({ url, receivedBytes, totalBytes }) => {
    const step = totalBytes ? Math.floor((receivedBytes / totalBytes) * 10) : Math.floor(receivedBytes / 100e6);
    if (step === shown) return;
    shown = step;
    const mb = (receivedBytes / 1e6).toFixed(0);
    process.stderr.write(visibleControls(`downloading ${url}: ${mb} MB${totalBytes ? ` of ${(totalBytes / 1e6).toFixed(0)} MB` : ''}\n`, { keepLayout: true }));
  };
}

/**
 * `local:<file.gguf>` — a GGUF model run in-process by node-llama-cpp. The file is resolved (and a
 * `local:hf:` file downloaded into the cache) when the provider is built, so a wrong path fails
 * before the run starts; the model is loaded on the first call and shared by every provider
 * with the same file and settings. Requests wait in line for one of `sequences` slots.
 *
 * Tools: with a template that has its own function-calling syntax, through it; otherwise the model
 * is held by a grammar to `{"name": <one of the tools>, "arguments": <that tool's schema>}`, read
 * back into a ToolCall and checked against the tool's JSON Schema (a violation is the call's
 * `parseError`). `responseFormat` holds the output to its JSON Schema; output that still fails the
 * full schema is returned as written with a warning.
 */
export async function createLocalProvider(options: LocalProviderOptions): Promise<ModelProvider> {
  const ref = parseLocalModelRef(options.model);
  const settings = engineSettingsFrom(options);
  const toolMode = options.toolMode ?? 'auto';
  const defaultMaxTokens = positiveInteger(options.defaultMaxTokens, 'local defaultMaxTokens') ?? DEFAULT_MAX_TOKENS;
  const { path: modelPath } = await resolveModelFile(ref, {
    ...(ref.kind === 'hf' && !options.download?.onProgress ? { onProgress: stderrProgress() } : {}),
    ...options.download,
  });
  let lease: { key: string; engine: Promise<LlamaEngine> } | undefined;
  let closed = false;
  let calls = 0;
  const id = `local:${options.model}`;

  async function generate(request: GenerateRequest, { signal }: { signal: AbortSignal }): Promise<GenerateResult> {
    if (signal.aborted) throw abortError(signal);
    if (closed) throw new ModelCallError('aborted', `provider ${id} is closed`);
    lease ??= acquireEngine(modelPath, settings);
    let engine: LlamaEngine;
    try {
      engine = await lease.engine;
    } catch (error) {
      // Cached by the lease: every later call fails the same way at once, without reloading.
      throw error instanceof ModelCallError ? error : new ModelCallError('bad-request', `cannot load ${modelPath}: ${describeError(error)}`);
    }
    const warnings: Warning[] = [];
    const tools = request.tools ?? [];
    const native = tools.length > 0 && (toolMode === 'native' || (toolMode === 'auto' && engine.nativeFunctions));
    const { settings: s } = request;

    const base: Pick<LLamaChatGenerateResponseOptions, 'signal' | 'temperature' | 'topP' | 'seed' | 'maxTokens' | 'customStopTriggers'> = {
      signal,
      ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
      ...(s.topP !== undefined ? { topP: s.topP } : {}),
      ...(s.seed !== undefined ? { seed: s.seed } : {}),
      maxTokens: s.maxTokens ?? defaultMaxTokens,
      ...(s.stop && s.stop.length > 0 ? { customStopTriggers: [...s.stop] } : {}),
    };
    let mode: 'text' | 'json' | 'tool-grammar' | 'tool-native' = 'text';
    // Exactly one of grammar / functions (node-llama-cpp's options type forbids both).
    let constraint: { grammar: LlamaGrammar } | { functions: ChatModelFunctions } | Record<string, never> = {};
    if (tools.length > 0) {
      if (request.responseFormat) warnings.push({ type: 'unsupported', feature: 'response-format-with-tools', details: 'tools were offered, so the response format was not enforced' });
      if (native) {
        mode = 'tool-native';
        const functions: Record<string, { description: string; params: never }> = {};
        for (const tool of tools) functions[tool.name] = { description: tool.description, params: toGrammarSchema({ type: 'object', ...tool.parameters }) as never };
        constraint = { functions };
      } else {
        mode = 'tool-grammar';
        warnings.push({ type: 'compatibility', feature: 'tool-choice', details: `${engine.chatWrapperName} template has no function-calling syntax: a JSON grammar made the model call one of the offered tools` });
        constraint = { grammar: await grammarOrThrow(engine, toolCallGrammarSchema(tools)) };
      }
    } else if (request.responseFormat) {
      mode = 'json';
      constraint = { grammar: await grammarOrThrow(engine, toGrammarSchema(request.responseFormat.schema)) };
    }
    const history = convertToLlamaHistory(request.messages, mode === 'tool-native');

    let outputTokens = 0;
    const response = await engine.withChat(async (chat, sequence) => {
      const before = sequence.tokenMeter.getState().usedOutputTokens;
      try {
        const result: LlamaChatResponse<ChatModelFunctions> = await chat.generateResponse(history as never, {
          ...base,
          ...constraint,
          onToken: (tokens: Token[]) => {
            outputTokens += tokens.length;
          },
        } as LLamaChatGenerateResponseOptions<ChatModelFunctions>);
        // The sequence holds prompt + answer (a shared prefix reused from the previous call included);
        // the meter counts what was generated, end token included.
        const generated = sequence.tokenMeter.getState().usedOutputTokens - before;
        return { result, inputTokens: Math.max(0, sequence.contextTokens.length - generated) };
      } catch (error) {
        if (signal.aborted) throw abortError(signal);
        throw new ModelCallError('bad-request', `${id}: generation failed: ${describeError(error)}`);
      }
    }, signal);
    const { result, inputTokens } = response;
    if (result.metadata.stopReason === 'abort') throw abortError(signal);

    const callId = (): string => `call_${++calls}`;
    let text = result.response;
    let toolCalls: ToolCall[] = [];
    if (mode === 'tool-native') {
      toolCalls = (result.functionCalls ?? []).map((call: { functionName: string; params: unknown }) =>
        checkedToolCall(callId(), call.functionName, call.params, JSON.stringify(call.params ?? {}), tools),
      );
    } else if (mode === 'tool-grammar') {
      toolCalls = [toolCallFromGrammarText(text, tools, callId())];
      text = '';
    } else if (mode === 'json' && request.responseFormat) {
      const problem = jsonProblem(text, request.responseFormat.schema);
      if (problem) warnings.push({ type: 'other', feature: 'response-format', details: `output does not match the schema "${request.responseFormat.name}": ${problem}` });
    }
    const finish = mapLlamaStopReason(result.metadata.stopReason, toolCalls.length > 0);
    return {
      text,
      toolCalls,
      finishReason: { unified: finish, raw: result.metadata.stopReason },
      usage: { inputTokens, outputTokens },
      warnings,
      rawResponse: { stopReason: result.metadata.stopReason, response: result.response, chatWrapper: engine.chatWrapperName, threads: engine.threads },
    };
  }

  return {
    specVersion: 'v1',
    id,
    // The call cache keys on the id: a path can be overwritten by another model, so only a download
    // pinned by sha256 names its content. Path ids are never answered from the cache.
    cacheable: ref.kind === 'hf' && ref.sha256 !== undefined,
    billed: false,
    generate,
    async close() {
      if (closed) return;
      closed = true;
      if (lease) await releaseEngine(lease.key);
    },
  };
}

async function grammarOrThrow(engine: LlamaEngine, schema: Parameters<LlamaEngine['grammarFor']>[0]) {
  try {
    return await engine.grammarFor(schema);
  } catch (error) {
    throw new ModelCallError('unsupported', `cannot build a grammar for this JSON schema: ${describeError(error)}`);
  }
}

function jsonProblem(text: string, schema: Readonly<Record<string, unknown>>): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  const problems = validateJson(value, schema);
  return problems.length === 0 ? undefined : problems.slice(0, 3).join('; ');
}
