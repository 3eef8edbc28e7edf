import type { DemoTask } from './demo-tasks.js';
import { startFakeOpenAIServer, type FakeServer } from './openai-wire.js';

/**
 * The loopback server a demo's models call over real HTTP (127.0.0.1, a free port): it answers
 * every role with the demo's script. Requests are not recorded (nothing reads them); it faults never.
 */
export async function startDemoServer(demo: DemoTask): Promise<FakeServer> {
  return startFakeOpenAIServer({ respond: (body) => demo.respond(body), record: false, countByKey: false });
}
