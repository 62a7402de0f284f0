import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../http/app-error';

/** GET /session answers 401 until accounts exist: nobody can be signed in yet. */
export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/session', async () => {
    throw AppError.unauthenticated();
  });
};
