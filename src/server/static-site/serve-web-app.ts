import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/error-handler';

/** The answer to an unknown API path. The path is not repeated: it may carry a token, and an echoed path is reflected content. */
export const noSuchRoute = { code: 'not_found', message: 'There is nothing at this address: check the method and the path.' } as const;

/** The built files whose names never change (src/web/pwa/pwa-plugin.ts): revalidated on every use. */
const REVALIDATED_FILES = new Set(['sw.js', 'manifest.webmanifest', 'index.html', 'offline.html']);

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
      // `npm run build` writes .br and .gz copies of the text files (scripts/compress-web-app.ts),
      // sent to browsers that accept them; without them the files go as they are.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        // Vite puts a content hash in every asset name, so those never change.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker and the manifest keep their names across releases: the browser must ask
        // each time whether they changed, or a deploy would not reach installed apps.
        if (REVALIDATED_FILES.has(path.relative(webRoot, filePath).replace(/\.(?:br|gz)$/, ''))) reply.header('cache-control', 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // A missing build file (a chunk of another release, during a rolling upgrade) is a 404, never the
    // page: the service worker would otherwise keep index.html as that chunk.
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && pathname !== '/api' && !pathname.startsWith('/assets/');
    if (!isPage) {
      return sendError(reply, 404, noSuchRoute);
    }
    if (!built) {
      return reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built yet: run npm run build');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
