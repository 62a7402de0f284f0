import { buildApp, type App } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { DatabaseHandle } from '../../src/server/db/client';
import type { Mailer } from '../../src/server/mail/mailer';
import type { TelephonyProvider } from '../../src/server/providers/telephony/telephony-provider';
import { openTestDatabase } from './test-database';

export interface TestApp {
  app: App;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

/** The real app, assembled as main.ts does, on this test file's own database. */
export async function buildTestApp(
  options: { env?: Record<string, string>; webRoot?: string; mailer?: Mailer; telephony?: TelephonyProvider } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    PUBLIC_URL: 'http://localhost:3000',
    AUTH_SECRET: 'test-secret-that-is-long-enough-for-better-auth',
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    logger: false,
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.telephony ? { telephony: options.telephony } : {}),
  });
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
