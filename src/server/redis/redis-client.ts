import { Redis } from 'ioredis';

/**
 * A connection to the shared Redis (REDIS_URL) for state that several instances share. While
 * Redis is away a command waits at most one reconnection attempt or two seconds, then fails (a
 * request then answers 503); the client reconnects by itself when Redis returns.
 */
export function createRedisClient(url: string): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Without a listener an unreachable Redis would crash the process; the failing commands say enough.
  client.on('error', () => {});
  return client;
}
