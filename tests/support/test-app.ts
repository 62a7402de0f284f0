import { buildApp, type App, type AppDependencies } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { loggerOptions } from '../../src/server/logging/logger-options';
import type { DatabaseHandle } from '../../src/server/db/client';
import { openTestDatabase } from './test-database';

export interface TestApp {
  app: App;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

export type TestAppOptions = Omit<AppDependencies, 'config' | 'database' | 'logger'> & {
  env?: Record<string, string>;
  /** Another test app's database, for a second instance sharing it; its owner closes it. */
  database?: DatabaseHandle;
  /** Takes the app's log lines, written as the server writes them (level LOG_LEVEL, redacted); none without it. */
  logStream?: { write(line: string): void };
};

/** The real app, assembled as main.ts does, on this test file's own database. */
export async function buildTestApp({ env, database: shared, logStream, ...dependencies }: TestAppOptions = {}): Promise<TestApp> {
  const database = shared ?? (await openTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    PUBLIC_URL: 'http://localhost:3000',
    AUTH_SECRET: 'test-secret-that-is-long-enough-for-better-auth',
    // A simulated incoming call at a random moment would make a test's user busy.
    SIMULATED_INCOMING_RATE: '0',
    // The retention job deletes by the clock; a test that wants it sets the interval itself.
    RETENTION_INTERVAL_MS: '0',
    ...env,
  });
  const app = await buildApp({ config, database, logger: logStream ? loggerOptions(config, logStream) : false, ...dependencies });
  return {
    app,
    database,
    config,
    close: async () => {
      let waitingOn = 'the app';
      const watchdog = setTimeout(() => reportSlowClose(app, waitingOn), SLOW_CLOSE_MS);
      try {
        await app.close();
        waitingOn = 'the database';
        if (!shared) await database.close();
      } finally {
        clearTimeout(watchdog);
      }
    },
  };
}

/** A close takes milliseconds; one that waits longer than this waits on something left open. */
const SLOW_CLOSE_MS = 15_000;

/** What a close still waits on (a hook timeout says nothing more): open websockets and connections. */
function reportSlowClose(app: App, waitingOn: string) {
  const sockets = [...app.websocketServer.clients].map((socket) => `readyState ${socket.readyState}`);
  app.server.getConnections((error, connections) => {
    console.error(
      `a test app has been closing for ${SLOW_CLOSE_MS / 1000} s, waiting on ${waitingOn}: ${error ? 'connections unknown' : `${connections} connection(s)`} open, websockets: ${sockets.join(', ') || 'none'}`,
    );
  });
}
