// `npm run bench:local`: tokens/second of the `local:` provider against node-llama-cpp used directly
// with the same settings, on two generated models that never stop by themselves (eos boost -30):
// the tiny test model and an ~85M-parameter F16 one. Both sides run the same chat through the same
// chat wrapper, interleaved, and the median of several runs is compared (this machine is shared, so
// single runs are noisy). Then CPU threads 1 vs 2 and sequences 1 vs 2. Figures, not assertions.
import { cpus } from 'node:os';
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from 'node-llama-cpp';
import type { GenerateRequest } from '../core/index.js';
import { createLocalProvider } from '../models/providers/local/index.js';
import { MODEL_85M, tempTinyGguf, type TinyGgufOptions } from '../testing/tiny-gguf.js';

const REPS = Number(process.env['ASSAY_BENCH_LOCAL_REPS'] ?? 5);
const CONTEXT = 2048;
const signal = new AbortController().signal;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const messages = [
  { role: 'system', content: 'You are a test bot.' },
  { role: 'user', content: 'Tell me a long story.' },
] as const;

interface Case {
  readonly label: string;
  readonly model: TinyGgufOptions;
  readonly tokens: number;
}
const cases: Case[] = [
  { label: 'tiny (116k params, F32)', model: { eosBoost: -30 }, tokens: 400 },
  { label: '~85M params (F16)', model: { ...MODEL_85M, eosBoost: -30 }, tokens: 48 },
];

/** node-llama-cpp by hand: one thread-capped binding, one context, one LlamaChat reused across calls (as the provider does). */
async function directRunner(path: string, threads: number): Promise<{ run(seed: number, tokens: number): Promise<number>; dispose(): Promise<void> }> {
  const llama = await getLlama({ gpu: false, maxThreads: threads, build: 'never', logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: path });
  const context = await model.createContext({ contextSize: CONTEXT, threads, sequences: 1 });
  const chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: resolveChatWrapper(model) });
  return {
    async run(seed, tokens) {
      let n = 0;
      const history = messages.map((m) => ({ type: m.role, text: m.content }));
      await chat.generateResponse(history as never, { maxTokens: tokens, temperature: 0.8, seed, onToken: (t) => (n += t.length) });
      return n;
    },
    async dispose() {
      await context.dispose();
      await model.dispose();
    },
  };
}

async function providerRunner(path: string, threads: number, sequences = 1) {
  const provider = await createLocalProvider({ model: path, threads, sequences, gpu: false, contextSize: CONTEXT });
  return {
    async run(seed: number, tokens: number): Promise<number> {
      const request: GenerateRequest = { messages: [...messages], settings: { temperature: 0.8, seed, maxTokens: tokens } };
      return (await provider.generate(request, { signal })).usage.outputTokens ?? 0;
    },
    async parallel(count: number, tokens: number): Promise<number> {
      const outs = await Promise.all(
        Array.from({ length: count }, (_, i) => provider.generate({ messages: [...messages], settings: { temperature: 0.8, seed: i, maxTokens: tokens } }, { signal })),
      );
      return outs.reduce((sum, o) => sum + (o.usage.outputTokens ?? 0), 0);
    },
    dispose: () => provider.close?.() ?? Promise.resolve(),
  };
}

async function timed(work: () => Promise<number>): Promise<number> {
  const start = performance.now();
  const tokens = await work();
  return tokens / ((performance.now() - start) / 1000);
}

console.log(`local: provider vs node-llama-cpp directly — ${cpus().length} CPUs, CPU only, context ${CONTEXT}, temperature 0.8, median of ${REPS} interleaved runs`);
for (const c of cases) {
  const started = performance.now();
  const file = await tempTinyGguf(c.model, 'bench.gguf');
  console.log(`\n${c.label}: ${(file.parameters / 1e6).toFixed(2)}M params, ${(file.bytes / 1e6).toFixed(1)} MB, written in ${((performance.now() - started) / 1000).toFixed(1)} s; ${c.tokens} tokens per call`);
  try {
    for (const threads of [1, 2]) {
      const direct = await directRunner(file.path, threads);
      const provider = await providerRunner(file.path, threads);
      // Warm-up: loads, first prompt evaluation, grammar-free path compiled.
      await direct.run(0, 8);
      await provider.run(0, 8);
      const d: number[] = [];
      const p: number[] = [];
      for (let rep = 0; rep < REPS; rep++) {
        // Alternate who goes first, so neither side always runs on a warmer cache.
        if (rep % 2 === 0) {
          d.push(await timed(() => direct.run(rep + 1, c.tokens)));
          p.push(await timed(() => provider.run(rep + 1, c.tokens)));
        } else {
          p.push(await timed(() => provider.run(rep + 1, c.tokens)));
          d.push(await timed(() => direct.run(rep + 1, c.tokens)));
        }
      }
      const ratio = median(p) / median(d);
      console.log(
        `  threads ${threads}: direct ${median(d).toFixed(1)} tok/s, provider ${median(p).toFixed(1)} tok/s, ratio ${ratio.toFixed(3)} (overhead ${((1 - ratio) * 100).toFixed(1)}%)`,
      );
      await direct.dispose();
      await provider.dispose();
    }
    for (const sequences of [1, 2]) {
      const provider = await providerRunner(file.path, 1, sequences);
      await provider.run(0, 8);
      const rates: number[] = [];
      for (let rep = 0; rep < Math.max(3, Math.floor(REPS / 2)); rep++) rates.push(await timed(() => provider.parallel(4, c.tokens)));
      console.log(`  sequences ${sequences} (threads 1, 4 requests at once): ${median(rates).toFixed(1)} tok/s total`);
      await provider.dispose();
    }
  } finally {
    await file.dispose();
  }
}
