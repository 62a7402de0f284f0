import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * Refuses state-changing API requests (/api, and the compatibility routes under /functions) sent
 * by pages of another site: the Origin header, when a browser sends one, must be this server itself
 * (same host) or PUBLIC_URL. Session cookies are also SameSite=Lax; this closes the remaining gap
 * for same-site but foreign origins.
 */
export function refuseForeignOrigins(app: FastifyInstance, publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method) || !(request.url.startsWith('/api/') || request.url.startsWith('/functions/'))) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin === publicOrigin || hostOf(origin) === request.headers.host) return;
    return sendError(reply, 403, { code: 'forbidden_origin', message: 'Requests from another site are refused' });
  });
}
