import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { supportRequestBodySchema, supportRequestSchema, supportRequestsSchema } from '../../common/api/support';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import { listSupportRequests, sendSupportRequest, type SupportContext } from './service';

export const supportRoutes: FastifyPluginAsyncZod<Omit<SupportContext, 'log'> & { auth: Auth }> = async (app, { auth, ...context }) => {
  app.get('/support', { schema: { response: { 200: supportRequestsSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return { requests: await listSupportRequests(context.db, user.id) };
  });

  app.post('/support', { schema: { body: supportRequestBodySchema, response: { 201: supportRequestSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return reply.code(201).send(await sendSupportRequest({ ...context, log: request.log }, user, request.body));
  });
};
