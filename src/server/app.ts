import { fileURLToPath } from 'node:url';
import fastifyHelmet from '@fastify/helmet';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { healthRoutes } from './health/routes';
import { installErrorHandling } from './http/error-handler';
import { sessionRoutes } from './session/routes';
import { serveWebApp } from './static-site/serve-web-app';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  webRoot?: string;
}

const defaultWebRoot = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** Assembles the server: infrastructure first, then one plugin per domain, then the web app. */
export async function buildApp({ config, database, logger, webRoot = defaultWebRoot }: AppDependencies) {
  const app = Fastify({
    logger: logger ?? { level: config.LOG_LEVEL },
    bodyLimit: 1_048_576,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);

  const secure = config.publicUrl.startsWith('https://');
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers and sonner injects its stylesheet at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: secure,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database });
      await api.register(sessionRoutes);
    },
    { prefix: '/api/v1' },
  );

  await serveWebApp(app, webRoot);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
