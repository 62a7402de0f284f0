import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { sendError } from './error-handler';
import { isApiRoute } from './require-session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The Vite dev server (npm run dev) proxies the API and its websockets with the page's own Origin. */
const DEV_SERVER_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/**
 * Websockets opened by a provider's servers, not by a browser: Vonage's media socket sends no
 * Origin and is authenticated by the signed one-time token in its URL instead.
 */
const PROVIDER_ROUTES = '/api/v1/providers/';

/** The origins whose pages may use the API with the user's cookies: PUBLIC_URL's, and the dev server's in development. */
export function allowedOrigins(config: Pick<Config, 'publicUrl' | 'NODE_ENV'>): ReadonlySet<string> {
  return new Set([new URL(config.publicUrl).origin, ...(config.NODE_ENV === 'development' ? DEV_SERVER_ORIGINS : [])]);
}

/**
 * Refuses, with 403 and before anything else runs, what a page of another site could make a browser
 * do with the user's cookies (SameSite=Lax leaves same-site but foreign origins, and websockets,
 * which no same-origin policy covers):
 * - a state-changing API request whose Origin is not one of ours (a request without Origin comes
 *   from no browser: providers' webhooks, scripts);
 * - a websocket upgrade whose Origin is not one of ours, or that has none, since a browser always
 *   sends one.
 * The decision is made on the matched route, so any encoding of a path (`/%61pi/…`) is judged by
 * the route it reaches. The Host header is not trusted as "this server": behind some proxies the
 * client sets it.
 */
export function refuseForeignOrigins(app: FastifyInstance, config: Pick<Config, 'publicUrl' | 'NODE_ENV'>) {
  const allowed = allowedOrigins(config);
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!isApiRoute(route)) return;
    const origin = request.headers.origin;
    // @fastify/websocket marks upgrades in its own onRequest hook, registered before this one.
    if (request.ws) {
      if (route!.startsWith(PROVIDER_ROUTES) || (origin !== undefined && allowed.has(origin))) return;
    } else if (SAFE_METHODS.has(request.method) || origin === undefined || allowed.has(origin)) {
      return;
    }
    return sendError(reply, 403, { code: 'forbidden_origin', message: 'Requests from another site are refused. Open Voxline at its own address and try again.' });
  });
}
