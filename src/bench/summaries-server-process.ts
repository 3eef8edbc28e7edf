// The summaries benchmark's model server (`npm run bench:summaries`), run in its own process so
// that its CPU is not billed to assay: both summarizers and the judge, scripted by
// `testing/summaries-answerer.ts`. Prints its URL as one JSON line; answers `{ type: 'count' }`
// on the IPC channel with the requests it has received so far.
import { startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import { answerSummariesRequest } from '../testing/summaries-answerer.js';

const latencyMs = Number(process.argv[2] ?? 50);
const server = await startFakeOpenAIServer({ respond: (body) => answerSummariesRequest(body), latencyMs, record: false, countByKey: false });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('message', (message: { type?: string }) => {
  if (message.type === 'count') process.send?.({ type: 'count', requests: server.requestCount });
});
process.on('SIGTERM', () => {
  void server.close().then(() => {
    const cpu = process.cpuUsage();
    process.stderr.write(`summaries server: ${server.requestCount} requests, ${((cpu.user + cpu.system) / 1000 / Math.max(1, server.requestCount)).toFixed(3)} ms CPU each\n`);
    process.disconnect?.();
    process.exit(0);
  });
});
