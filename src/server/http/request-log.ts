import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The path of a request's URL without its query: the links Voxline mails carry their token in
 * the query (/auth?tab=updatePassword&token=…, /api/auth/verify-email?token=…), and a log line
 * must never hold one.
 */
export function pathForLog(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Fastify's request serializer (method, url, host, client address and port) with the query left out. */
export const requestLogSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: pathForLog(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

/**
 * At trace level, each request's headers and its answer's, whole: what a proxy or a browser really
 * sent is the question when forwarding, origins or cookies misbehave. Their secrets (cookies,
 * Authorization, signatures) are blanked by the logger's redaction (logging/logger-options.ts).
 */
export function traceHeaders(app: FastifyInstance) {
  // The level is fixed at start: below trace the hooks would build objects for nothing.
  if (app.log.level !== 'trace') return;
  app.addHook('onRequest', async (request) => {
    request.log.trace({ headers: request.headers }, 'request headers');
  });
  app.addHook('onSend', async (request, reply) => {
    request.log.trace({ headers: reply.getHeaders() }, 'answer headers');
  });
}
