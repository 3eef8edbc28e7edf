import { Option } from 'commander';
import type { Redis } from 'ioredis';
import { InputError } from '../core/index.js';
import type { LimiterFactory } from '../models/middleware/limiter.js';
import { DEFAULT_LIMIT_PREFIX, redisLimiters } from '../models/middleware/redis-limiter.js';
import { checkKeyPrefix, checkRedisUrl, connectRedis } from '../redis/connect.js';

export interface SharedLimitsFlags {
  sharedLimits?: string;
  sharedLimitsPrefix?: string;
}

export const sharedLimitsOptions = (): Option[] => [
  new Option(
    '--shared-limits <redis-url>',
    'keep the --rpm/--tpm limits in Redis, shared by every assay process that uses the same Redis and prefix (one provider limit for all of them); without it each process has its own',
  ),
  new Option('--shared-limits-prefix <prefix>', 'namespace of the shared limits\' keys in Redis (processes share a limit only under the same prefix)').default(DEFAULT_LIMIT_PREFIX),
];

/** The shared limiters `--shared-limits` asks for, connected (or one line refusing it), and how to let go of them. */
export async function sharedLimitsFrom(flags: SharedLimitsFlags, limited: boolean | undefined, onWarning: (message: string) => void): Promise<{ limiters: LimiterFactory; close(): Promise<void> } | undefined> {
  if (flags.sharedLimits === undefined) return undefined;
  checkRedisUrl(flags.sharedLimits, '--shared-limits');
  const prefix = flags.sharedLimitsPrefix ?? DEFAULT_LIMIT_PREFIX;
  checkKeyPrefix(prefix, '--shared-limits-prefix');
  // undefined: not known here (a resume takes the run's own limits).
  if (limited === false) throw new InputError('--shared-limits shares the --rpm and --tpm limits: give at least one of them');
  const redis: Redis = await connectRedis(flags.sharedLimits, { option: '--shared-limits', onWarning });
  return {
    limiters: redisLimiters(redis, { prefix }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
