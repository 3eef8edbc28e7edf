// The scale benchmark's model server, in its own process (its CPU is not billed to assay): answers
// a synthetic prompt after `latencyMs` (argv[2], default 50).
import { startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import { syntheticAnswer } from './synthetic-task.js';

const latencyMs = Number(process.argv[2] ?? 50);
const server = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: syntheticAnswer(ctx.key) }), latencyMs, record: false, countByKey: false });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => {
    process.stderr.write(`synthetic server: ${server.requestCount} requests\n`);
    process.exit(0);
  });
});
