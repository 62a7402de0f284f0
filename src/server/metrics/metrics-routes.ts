import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import { sendError } from '../http/error-handler';
import { noSuchRoute } from '../static-site/serve-web-app';

export const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * /metrics on the main port, for a Prometheus that reaches only that port: answered only with
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise), and unknown (404) while no token is
 * set, so that nothing is public by default (docs/operations.md#metrics).
 */
export const metricsRoutes: FastifyPluginAsync<{ registry: Registry; token: string | null }> = async (app, { registry, token }) => {
  // Compared as digests, which have one length whatever was sent, in constant time.
  const expected = token === null ? null : digest(token);
  app.get(METRICS_PATH, { config: { public: true }, logLevel: 'warn' }, async (request, reply) => {
    if (!expected) return sendError(reply, 404, noSuchRoute);
    const given = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      void reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(reply, 401, { code: 'unauthenticated', message: 'The metrics need the header Authorization: Bearer <METRICS_TOKEN>' });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
};
