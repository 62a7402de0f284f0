import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminCallParamsSchema, adminEndedCallSchema, adminInstancesSchema, adminLiveCallsSchema, adminPaymentsSchema } from '../../common/api/admin';
import type { Auth } from '../auth/auth';
import { requireAdmin } from './admins';
import type { AdminService } from './service';

interface AdminRouteOptions {
  auth: Auth;
  /** ADMIN_EMAILS, lower-cased. */
  adminEmails: readonly string[];
  admin: AdminService;
}

/** The operator's routes (docs/api.md#admin): administrators only, every use logged with who it was. */
export const adminRoutes: FastifyPluginAsyncZod<AdminRouteOptions> = async (app, { auth, adminEmails, admin }) => {
  const administrator = (request: FastifyRequest, reply: FastifyReply) => requireAdmin(auth, adminEmails, request, reply);
  // After the app's session check (401 first), before the input is read: anyone else gets 403 whatever they send.
  app.addHook('preParsing', async (request, reply) => {
    await administrator(request, reply);
  });

  app.get('/calls', { schema: { response: { 200: adminLiveCallsSchema } } }, async (request, reply) => {
    const user = await administrator(request, reply);
    const calls = await admin.liveCalls();
    request.log.info({ admin: { userId: user.id, email: user.email }, calls: calls.length }, 'an administrator listed the live calls');
    return { calls };
  });

  app.get('/instances', { schema: { response: { 200: adminInstancesSchema } } }, async (request, reply) => {
    const user = await administrator(request, reply);
    const instances = await admin.instances();
    request.log.info({ admin: { userId: user.id, email: user.email } }, 'an administrator listed the instances');
    return { instances };
  });

  app.get('/payments', { schema: { response: { 200: adminPaymentsSchema } } }, async (request, reply) => {
    const user = await administrator(request, reply);
    const payments = await admin.recentPayments();
    request.log.info({ admin: { userId: user.id, email: user.email } }, 'an administrator listed the recent payments');
    return { payments };
  });

  app.post('/calls/:callId/end', { schema: { params: adminCallParamsSchema, response: { 200: adminEndedCallSchema } } }, async (request, reply) => {
    const user = await administrator(request, reply);
    const { callId } = request.params;
    const who = { admin: { userId: user.id, email: user.email }, callId };
    request.log.info(who, 'an administrator is ending a call');
    const ended = await admin.endCall(callId);
    request.log.info({ ...who, outcome: ended.outcome }, 'an administrator ended a call');
    return ended;
  });
};
