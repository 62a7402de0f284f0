import { createRedisClient } from '../redis/redis-client';
import type { Bus } from './bus';
import { LocalBus } from './local-bus';
import { RedisBus } from './redis-bus';

/** Redis pub/sub when REDIS_URL is set, so that several instances share it; else this process alone. */
export function createBus(redisUrl: string | undefined, log: { warn(obj: object, msg: string): void }): Bus {
  if (!redisUrl) return new LocalBus();
  const publisher = createRedisClient(redisUrl);
  const subscriber = publisher.duplicate();
  // As in createRedisClient: without a listener an unreachable Redis would crash the process.
  subscriber.on('error', () => {});
  return new RedisBus(publisher, subscriber, log);
}
