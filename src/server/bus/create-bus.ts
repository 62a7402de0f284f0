import { createRedisClient, logRedisConnection, type RedisConnectionLog } from '../redis/redis-client';
import type { Bus } from './bus';
import { LocalBus } from './local-bus';
import { RedisBus } from './redis-bus';

/** Redis pub/sub when REDIS_URL is set, so that several instances share it; else this process alone. */
export function createBus(redisUrl: string | undefined, log: RedisConnectionLog): Bus {
  if (!redisUrl) return new LocalBus();
  const publisher = createRedisClient(redisUrl, log, 'bus publisher');
  const subscriber = publisher.duplicate();
  logRedisConnection(subscriber, log, 'bus subscriber');
  return new RedisBus(publisher, subscriber, log);
}
