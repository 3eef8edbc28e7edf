import {
  ChatWrapper,
  getLlama,
  LlamaChat,
  LlamaLogLevel,
  resolveChatWrapper,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaModel,
} from 'node-llama-cpp';
import { ModelCallError, describeError } from '../../../core/index.js';
import type { GrammarSchema } from './to-grammar-schema.js';

export interface EngineSettings {
  /** `auto` uses a GPU when node-llama-cpp finds one; false forces the CPU. */
  readonly gpu: 'auto' | false;
  /** Threads for evaluation; undefined = 1 on CPU (measured, see docs/local-models.md), library default on GPU. */
  readonly threads: number | undefined;
  /** Tokens of context per sequence; undefined = the model's training context, capped at 4096. */
  readonly contextSize: number | undefined;
  /** Parallel sequences in the one context: how many requests generate at once. */
  readonly sequences: number;
}

/** One loaded model with its context and a pool of sequences, shared by every provider using the same file and settings. */
export interface LlamaEngine {
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  /** Threads actually used. */
  readonly threads: number;
  /** Whether the model's chat template has its own function-calling syntax (else tools go through the grammar mode). */
  readonly nativeFunctions: boolean;
  readonly chatWrapperName: string;
  /** Runs `work` on a free sequence, waiting in line (FIFO) for one; the wait ends early on abort. */
  withChat<T>(work: (chat: LlamaChat, sequence: LlamaContextSequence) => Promise<T>, signal: AbortSignal): Promise<T>;
  /** A grammar for a JSON schema, built once per distinct schema. */
  grammarFor(schema: GrammarSchema): Promise<LlamaGrammar>;
}

const CONTEXT_CAP = 4096;
const GRAMMAR_CACHE_LIMIT = 64;

const llamas = new Map<string, Promise<Llama>>();
const engines = new Map<string, { engine: Promise<LlamaEngine>; users: number }>();

/** One native binding per GPU choice and thread cap, loaded on first use. */
export function sharedLlama(gpu: 'auto' | false, maxThreads: number | undefined): Promise<Llama> {
  const key = `${String(gpu)}/${maxThreads ?? 'default'}`;
  let llama = llamas.get(key);
  if (!llama) {
    // build: 'never' — a missing prebuilt binary must be an error here, not a 10-minute cmake build mid-run.
    llama = getLlama({ gpu, build: 'never', logLevel: LlamaLogLevel.error, ...(maxThreads !== undefined ? { maxThreads } : {}) });
    llamas.set(key, llama);
    llama.catch(() => llamas.delete(key));
  }
  return llama;
}

/**
 * The engine for `modelPath` with these settings, loading it on first use; every `acquireEngine`
 * must be paired with one `releaseEngine` (the last release frees the context and the model).
 */
export function acquireEngine(modelPath: string, settings: EngineSettings): { key: string; engine: Promise<LlamaEngine> } {
  const key = JSON.stringify([modelPath, settings]);
  let entry = engines.get(key);
  if (!entry) {
    const engine = loadEngine(modelPath, settings);
    entry = { engine, users: 0 };
    engines.set(key, entry);
    // A failed load is not cached forever: the next acquire tries again.
    engine.catch(() => {
      if (engines.get(key) === entry) engines.delete(key);
    });
  }
  entry.users++;
  return { key, engine: entry.engine };
}

export async function releaseEngine(key: string): Promise<void> {
  const entry = engines.get(key);
  if (!entry) return;
  entry.users--;
  if (entry.users > 0) return;
  engines.delete(key);
  const engine = await entry.engine.catch(() => undefined);
  if (!engine) return;
  await engine.context.dispose();
  await engine.model.dispose();
}

async function loadEngine(modelPath: string, settings: EngineSettings): Promise<LlamaEngine> {
  let llama: Llama;
  try {
    // On the CPU the thread cap must be set on the binding too: node-llama-cpp defaults to max(4, cores).
    llama = await sharedLlama(settings.gpu, settings.gpu === false ? (settings.threads ?? 1) : settings.threads);
  } catch (error) {
    throw new ModelCallError('unsupported', `node-llama-cpp has no usable binary on this machine (${describeError(error)}); see docs/local-models.md`);
  }
  const threads = settings.threads ?? (llama.gpu === false ? 1 : llama.maxThreads);
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath });
  } catch (error) {
    throw new ModelCallError('bad-request', `cannot load ${modelPath} as a GGUF model: ${describeError(error)}`);
  }
  const contextSize = settings.contextSize ?? Math.min(model.trainContextSize, CONTEXT_CAP);
  let context: LlamaContext;
  try {
    context = await model.createContext({ contextSize, threads, sequences: settings.sequences });
  } catch (error) {
    await model.dispose();
    throw new ModelCallError('bad-request', `cannot create a ${contextSize}-token context × ${settings.sequences} sequence(s) for ${modelPath}: ${describeError(error)}`);
  }
  const chatWrapper = resolveChatWrapper(model);
  // Wrappers without a syntax of their own inherit node-llama-cpp's invented `||call:` format; a model
  // never trained on it would only be confused by it, so those go through the grammar mode instead.
  const nativeFunctions = chatWrapper.settings.functions !== ChatWrapper.defaultSettings.functions;

  const free: { chat: LlamaChat; sequence: LlamaContextSequence }[] = [];
  for (let i = 0; i < settings.sequences; i++) {
    const sequence = context.getSequence();
    free.push({ chat: new LlamaChat({ contextSequence: sequence, chatWrapper }), sequence });
  }
  const waiting: Array<(slot: { chat: LlamaChat; sequence: LlamaContextSequence }) => void> = [];
  const grammars = new Map<string, Promise<LlamaGrammar>>();

  const take = (signal: AbortSignal): Promise<{ chat: LlamaChat; sequence: LlamaContextSequence }> => {
    const slot = free.pop();
    if (slot) return Promise.resolve(slot);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const at = waiting.indexOf(grant);
        if (at !== -1) waiting.splice(at, 1);
        reject(abortError(signal));
      };
      const grant = (s: { chat: LlamaChat; sequence: LlamaContextSequence }): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(s);
      };
      waiting.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  };
  const give = (slot: { chat: LlamaChat; sequence: LlamaContextSequence }): void => {
    const next = waiting.shift();
    if (next) next(slot);
    else free.push(slot);
  };

  return {
    model,
    context,
    threads,
    nativeFunctions,
    chatWrapperName: chatWrapper.wrapperName,
    async withChat(work, signal) {
      if (signal.aborted) throw abortError(signal);
      const slot = await take(signal);
      try {
        return await work(slot.chat, slot.sequence);
      } finally {
        give(slot);
      }
    },
    grammarFor(schema) {
      const key = JSON.stringify(schema);
      let grammar = grammars.get(key);
      if (!grammar) {
        if (grammars.size >= GRAMMAR_CACHE_LIMIT) grammars.delete(grammars.keys().next().value as string);
        grammar = llama.createGrammarForJsonSchema(schema as Parameters<Llama['createGrammarForJsonSchema']>[0]);
        grammars.set(key, grammar);
        grammar.catch(() => grammars.delete(key));
      }
      return grammar;
    },
  };
}

/** The middleware aborts with a `ModelCallError` (a timeout) as the reason; anything else is a stop. */
export function abortError(signal: AbortSignal): ModelCallError {
  const reason: unknown = signal.reason;
  if (reason instanceof ModelCallError) return reason;
  return new ModelCallError('aborted', `request aborted${reason === undefined ? '' : `: ${describeError(reason)}`}`);
}
