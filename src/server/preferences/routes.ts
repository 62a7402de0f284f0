import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { preferencesSchema, updatePreferencesBodySchema } from '../../common/api/preferences';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import type { Database } from '../db/client';
import { getPreferences, updatePreferences } from './service';

export const preferencesRoutes: FastifyPluginAsyncZod<{ auth: Auth; db: Database }> = async (app, { auth, db }) => {
  app.get('/preferences', { schema: { response: { 200: preferencesSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return getPreferences(db, user.id);
  });

  app.patch('/preferences', { config: { sync: ['preferences'] }, schema: { body: updatePreferencesBodySchema, response: { 200: preferencesSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return updatePreferences(db, user.id, request.body);
  });
};
