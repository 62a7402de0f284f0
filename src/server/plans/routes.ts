import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { minutesSchema, subscriptionStatusSchema } from '../../common/api/subscription';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { minutesThisMonth, subscriptionStatus } from './service';

export const plansRoutes: FastifyPluginAsyncZod<{ auth: Auth; db: Database }> = async (app, { auth, db }) => {
  const subscriber = async (...args: Parameters<typeof requireUser>) => {
    try {
      return await requireUser(...args);
    } catch (error) {
      // SPEC §5: 'You must be logged in to check subscription status'.
      if (error instanceof AppError && error.statusCode === 401) throw AppError.unauthenticated('You must be logged in to check subscription status');
      throw error;
    }
  };

  app.get('/subscription', { schema: { response: { 200: subscriptionStatusSchema } } }, async (request, reply) => {
    const user = await subscriber(auth, request, reply);
    return subscriptionStatus(db, user.id);
  });

  app.get('/subscription/minutes', { schema: { response: { 200: minutesSchema } } }, async (request, reply) => {
    const user = await subscriber(auth, request, reply);
    return minutesThisMonth(db, user.id);
  });
};
