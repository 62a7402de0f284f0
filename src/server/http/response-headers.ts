import type { FastifyInstance } from 'fastify';
import { isApiRoute } from './require-session';

/**
 * The browser features a Voxline page may use: the microphone, for calls, on this site only;
 * nothing else that touches the person or their devices, for this site or anything it embeds.
 * (Helmet sets the other security headers but has no Permissions-Policy.)
 */
export const PERMISSIONS_POLICY = [
  'microphone=(self)',
  'camera=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'midi=()',
  'display-capture=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
].join(', ');

/**
 * Permissions-Policy on every answer, and `Cache-Control: no-store` on every API answer that does
 * not set its own: they carry a person's account, numbers, calls and payments, which no shared
 * cache or back button should keep.
 */
export function addResponseHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    void reply.header('permissions-policy', PERMISSIONS_POLICY);
    const api = isApiRoute(request.routeOptions.url) || request.url.startsWith('/api/') || request.url.startsWith('/functions/');
    if (api && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
  });
}
