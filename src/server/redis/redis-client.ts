import type { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/** Where a Redis connection reports losing Redis and finding it again. */
export interface RedisConnectionLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Logs the first failure of an outage and the reconnection that ends it. ioredis retries every
 * two seconds at most while Redis is away, each retry failing again: one line per retry would
 * bury everything else. `connection` says which of the instance's connections it is.
 */
export function logRedisConnection(client: EventEmitter, log: RedisConnectionLog, connection: string) {
  let away = false;
  client.on('error', (error: Error) => {
    if (away) return;
    away = true;
    log.warn({ err: error, connection }, 'Redis unreachable; reconnecting until it answers');
  });
  client.on('ready', () => {
    if (!away) return;
    away = false;
    log.info({ connection }, 'Redis reachable again');
  });
}

/**
 * A connection to the shared Redis (REDIS_URL) for state that several instances share. While
 * Redis is away a command waits at most one reconnection attempt or two seconds, then fails (a
 * request then answers 503); the client reconnects by itself when Redis returns. The app gives a
 * log; tests that only need an unreachable Redis leave it out.
 */
export function createRedisClient(url: string, log?: RedisConnectionLog, connection = 'shared state'): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Without an 'error' listener an unreachable Redis would crash the process.
  if (log) logRedisConnection(client, log, connection);
  else client.on('error', () => {});
  return client;
}
