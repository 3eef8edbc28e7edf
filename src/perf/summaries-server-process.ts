// The summaries benchmark's model server (`npm run bench:summaries`), run in its own process so
// that its CPU is not billed to assay: both summarizers and the judge, scripted by
// `testing/summaries-answerer.ts`. Prints its URL as one JSON line; answers `{ type: 'count' }`
// on the IPC channel with the requests it has received so far and how full the judge's pipe was.
import { startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import { answerSummariesRequest } from '../testing/summaries-answerer.js';

const latencyMs = Number(process.argv[2] ?? 50);

// The judge's requests held by the server (arrived, not answered yet), integrated over time: the
// mean shows how much of the judge's concurrency was spent waiting on the server's latency, the
// rest being the client's own work and the loopback between.
let judgeHeld = 0;
let judgeHeldMs = 0;
let lastChange = performance.now();
let lateMs = 0;
let answered = 0;
const arrivals = new WeakMap<object, number>();
const heldChanges = (delta: number): void => {
  const now = performance.now();
  judgeHeldMs += judgeHeld * (now - lastChange);
  lastChange = now;
  judgeHeld += delta;
};

const server = await startFakeOpenAIServer({
  latencyMs: (ctx) => {
    arrivals.set(ctx.body, performance.now());
    if (ctx.body.model === 'judge') heldChanges(1);
    return latencyMs;
  },
  respond: (body) => {
    const arrived = arrivals.get(body);
    if (arrived !== undefined) {
      lateMs += performance.now() - arrived - latencyMs;
      answered++;
    }
    if (body.model === 'judge') heldChanges(-1);
    return answerSummariesRequest(body);
  },
  record: false,
  countByKey: false,
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('message', (message: { type?: string }) => {
  if (message.type === 'count') {
    heldChanges(0);
    process.send?.({ type: 'count', requests: server.requestCount, judgeHeldMs, lateMs, answered });
  }
});
process.on('SIGTERM', () => {
  void server.close().then(() => {
    const cpu = process.cpuUsage();
    process.stderr.write(`summaries server: ${server.requestCount} requests, ${((cpu.user + cpu.system) / 1000 / Math.max(1, server.requestCount)).toFixed(3)} ms CPU each\n`);
    process.disconnect?.();
    process.exit(0);
  });
});
