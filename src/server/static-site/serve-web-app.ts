import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/error-handler';

/** The answer to an unknown API path. The path is not repeated: it may carry a token, and an echoed path is reflected content. */
export const noSuchRoute = { code: 'not_found', message: 'There is nothing at this address: check the method and the path.' } as const;

/**
 * Serves the built web app and answers every other GET with index.html so deep links load the SPA.
 * Unknown paths under /api, and non-GET requests, get the JSON 404 instead.
 */
export async function serveWebApp(app: FastifyInstance, webRoot: string) {
  const indexPath = path.join(webRoot, 'index.html');
  const built = fs.existsSync(indexPath);
  if (built) {
    await app.register(fastifyStatic, {
      root: webRoot,
      index: false,
      wildcard: false,
      setHeaders: (reply, filePath) => {
        // Vite puts a content hash in every asset name, so those never change.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && pathname !== '/api';
    if (!isPage) {
      return sendError(reply, 404, noSuchRoute);
    }
    if (!built) {
      return reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built yet: run npm run build');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
