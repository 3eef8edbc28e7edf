// The benchmark's model server, run in its own process so that its CPU is not billed to assay.
import { startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import { answerMetaToolPrompt } from '../testing/metatool-answerer.js';

const latencyMs = Number(process.argv[2] ?? 50);
const server = await startFakeOpenAIServer({ respond: (_body, ctx) => ({ text: answerMetaToolPrompt(ctx.key) }), latencyMs, record: false, countByKey: false });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => {
    const cpu = process.cpuUsage();
    process.stderr.write(`fake server: ${server.requestCount} requests, ${((cpu.user + cpu.system) / 1000 / Math.max(1, server.requestCount)).toFixed(3)} ms CPU each\n`);
    process.exit(0);
  });
});
