import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer, type FakeServer } from './fake-openai-server.js';
import { Gate } from './gate.js';
import { answerMetaToolPrompt } from './metatool-answerer.js';

/** A loopback MetaTool answerer whose answers wait at a gate, and a temp folder for the test's databases. */
export interface GatedMetaToolServer {
  readonly server: FakeServer;
  /** Closed, the server holds its answers: the calls in flight stay in flight as long as the test needs. */
  readonly gate: Gate;
  readonly dir: string;
  /** Opens the gate, stops the server and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts the fake OpenAI-compatible server the process-level e2e tests share (run leases, Ctrl-C):
 * it answers MetaTool prompts deterministically (`answerMetaToolPrompt`) after a short latency,
 * once its gate lets the answer through.
 */
export async function startGatedMetaToolServer(folderPrefix: string): Promise<GatedMetaToolServer> {
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  const gate = new Gate();
  const server = await startFakeOpenAIServer({
    respond: async (_body, ctx) => {
      await gate.pass();
      return { text: answerMetaToolPrompt(ctx.key) };
    },
    latencyMs: 5,
  });
  return {
    server,
    gate,
    dir,
    async close() {
      gate.open();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
