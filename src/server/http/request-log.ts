import type { FastifyRequest } from 'fastify';

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
