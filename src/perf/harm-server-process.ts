// The harm benchmark's model server (`npm run bench:harm`), in its own process so that its CPU is
// not billed to assay: simulated user, system under test and judge, scripted by
// `testing/harm-bench-answerer.ts`. Prints its URL as one JSON line; answers `{ type: 'count' }`
// on the IPC channel with the requests it has received so far.
import { startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import { answerHarmBenchRequest } from '../testing/harm-bench-answerer.js';

const latencyMs = Number(process.argv[2] ?? 50);
const server = await startFakeOpenAIServer({ latencyMs, respond: answerHarmBenchRequest, record: false, countByKey: false });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('message', (message: { type?: string }) => {
  if (message.type === 'count') process.send?.({ type: 'count', requests: server.requestCount });
});
process.on('SIGTERM', () => {
  void server.close().then(() => {
    process.disconnect?.();
    process.exit(0);
  });
});
