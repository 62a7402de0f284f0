import type { Redis } from 'ioredis';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, type Health } from '../../common/api/health';
import type { DatabaseHandle } from '../db/client';

export interface HealthDependencies {
  database: DatabaseHandle;
  /** The Redis shared by the instances (REDIS_URL), when there is one. */
  redis?: Redis | null;
}

export const healthRoutes: FastifyPluginAsyncZod<HealthDependencies> = async (app, { database, redis }) => {
  const reachable = async (name: string, ping: () => Promise<unknown>) => {
    try {
      await ping();
      return 'up' as const;
    } catch (error) {
      app.log.warn({ err: error }, `health check: ${name} down`);
      return 'down' as const;
    }
  };

  app.get('/health', { config: { public: true }, schema: { response: { 200: healthSchema, 503: healthSchema } } }, async (_request, reply) => {
    const [databaseState, redisState] = await Promise.all([
      reachable('database', () => database.ping()),
      redis ? reachable('redis', () => redis.ping()) : undefined,
    ]);
    const health: Health = {
      status: databaseState === 'up' && redisState !== 'down' ? 'ok' : 'degraded',
      database: { driver: database.driver, state: databaseState },
      ...(redisState ? { redis: { state: redisState } } : {}),
    };
    // Only the database takes an instance out of the load balancer's rotation: Redis is shared by
    // every instance, so draining one for it would serve nothing better (docs/deploy.md).
    return reply.code(databaseState === 'up' ? 200 : 503).send(health);
  });
};
