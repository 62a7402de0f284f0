import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientErrorReportSchema } from '../../common/api/client-errors';
import { clientNetwork, type RateLimiter } from '../http/rate-limiter';
import { pathForLog } from '../http/request-log';

const MINUTE = 60_000;
// A broken page reports once each time it is opened; more than this from one address fills the log, nothing more.
const reportsPerAddress = { limit: 20, windowMs: 10 * MINUTE };

/** Pages that failed in the browser (the error screens of src/web), written to the server log. */
export const clientErrorRoutes: FastifyPluginAsyncZod<{ rateLimiter: RateLimiter }> = async (app, { rateLimiter }) => {
  // Public: the sign-in page can fail for a visitor who has no session yet.
  app.post('/client-errors', { config: { public: true }, schema: { body: clientErrorReportSchema, response: { 204: z.null() } } }, async (request, reply) => {
    await rateLimiter.hit(`client-errors:ip:${clientNetwork(request.ip)}`, reportsPerAddress);
    const { route, message, stack } = request.body;
    // The query is left out as in every log line: a link's token can sit there. Nothing is sent back.
    request.log.warn({ clientError: { route: pathForLog(route), message, stack } }, 'a page failed in the browser');
    return reply.code(204).send(null);
  });
};
