import type { Redis } from 'ioredis';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, livenessSchema, readinessSchema, type Health } from '../../common/api/health';
import type { DatabaseHandle } from '../db/client';
import type { Draining } from './draining';
import { checkReadiness } from './readiness';

export interface HealthDependencies {
  database: DatabaseHandle;
  /** The Redis shared by the instances (REDIS_URL), when there is one. */
  redis?: Redis | null;
  draining: Draining;
  /** The calls this instance carries now. */
  carriedCalls: () => number;
  /** MAX_CALLS_PER_INSTANCE */
  maxCalls: number;
}

// A balancer polls these every second or so: its requests are logged only when something goes
// wrong, and no rate limit applies to them.
const probe = { public: true } as const;
const probeLogLevel = 'warn';

export const healthRoutes: FastifyPluginAsyncZod<HealthDependencies> = async (app, { database, redis, draining, carriedCalls, maxCalls }) => {
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

  app.get('/health/live', { config: probe, logLevel: probeLogLevel, schema: { response: { 200: livenessSchema } } }, async () => ({ live: true as const }));

  app.get('/health/ready', { config: probe, logLevel: probeLogLevel, schema: { response: { 200: readinessSchema, 503: readinessSchema } } }, async (request, reply) => {
    const readiness = await checkReadiness({ database, redis, draining, carriedCalls, maxCalls, log: request.log });
    return reply.code(readiness.ready ? 200 : 503).send(readiness);
  });
};
