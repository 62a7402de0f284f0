import { buildApp, type App } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { DatabaseHandle } from '../../src/server/db/client';
import { openTestDatabase } from './test-database';

export interface TestApp {
  app: App;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

/** The real app, assembled as main.ts does, on this test file's own database. */
export async function buildTestApp(options: { env?: Record<string, string>; webRoot?: string } = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', ...options.env });
  const app = await buildApp({ config, database, logger: false, ...(options.webRoot ? { webRoot: options.webRoot } : {}) });
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
