import { connectRedis } from '../../redis/connect.js';
import { QUEUE_PREFIX } from '../queue-location.js';

/** The Redis server the services tests use: `ASSAY_TEST_REDIS_URL`, else the machine's own. */
export const TEST_REDIS_URL = process.env['ASSAY_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Queue names of their own for tests and benches (`<kind>-<what>-<pid>-<time>-<n>`), so they run
 * side by side on one Redis, and their keys deleted afterwards (`dropAll`, call it in `after`):
 * BullMQ's and assay's own, all under `<prefix>:<name>:`. `npm run test:services` left ~100 keys
 * behind on every run, `bench:compare`'s queue case 3 per run, in a Redis the machine's other work
 * shares.
 */
export class ScratchQueues {
  private readonly names: string[] = [];

  constructor(
    private readonly url = TEST_REDIS_URL,
    /** The names' first part: `e2e` for the services tests. */
    private readonly kind = 'e2e',
  ) {}

  /** A new queue name; `what` says which test it is for (it shows in messages that name the queue). */
  name(what: string): string {
    const name = `${this.kind}-${what}-${process.pid}-${Date.now().toString(36)}-${this.names.length}`;
    this.names.push(name);
    return name;
  }

  /** Deletes every key of every queue named here. */
  async dropAll(): Promise<void> {
    if (this.names.length === 0) return;
    const redis = await connectRedis(this.url, { option: "the scratch queues' Redis" });
    try {
      for (const name of this.names.splice(0)) {
        let cursor = '0';
        do {
          // The names hold only letters, digits and '-': nothing a pattern would read as a glob.
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${QUEUE_PREFIX}:${name}:*`, 'COUNT', 1000);
          if (keys.length > 0) await redis.unlink(...keys);
          cursor = next;
        } while (cursor !== '0');
      }
    } finally {
      redis.disconnect();
    }
  }
}
