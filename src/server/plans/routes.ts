import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { minutesSchema, subscriptionStatusSchema } from '../../common/api/subscription';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import type { Database } from '../db/client';
import { minutesThisMonth, subscriptionStatus } from './service';

export const plansRoutes: FastifyPluginAsyncZod<{ auth: Auth; db: Database }> = async (app, { auth, db }) => {
  // docs/product.md §5: 'You must be logged in to check subscription status'.
  const config = { unauthenticatedMessage: 'You must be logged in to check subscription status' };

  app.get('/subscription', { config, schema: { response: { 200: subscriptionStatusSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return subscriptionStatus(db, user.id);
  });

  app.get('/subscription/minutes', { config, schema: { response: { 200: minutesSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return minutesThisMonth(db, user.id);
  });
};
