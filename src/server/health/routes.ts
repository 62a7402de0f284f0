import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '../../common/api/health';
import type { DatabaseHandle } from '../db/client';

export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get('/health', { schema: { response: { 200: healthSchema, 503: healthSchema } } }, async (request, reply) => {
    try {
      await database.ping();
      return { status: 'ok' as const, database: { driver: database.driver, state: 'up' as const } };
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database down');
      return reply.code(503).send({ status: 'degraded', database: { driver: database.driver, state: 'down' } });
    }
  });
};
