import { buildApp } from './app';
import { ConfigError, loadConfig, unsafeAllowancesInUse, type Config } from './config';
import { lockDataDir, DataDirLockedError } from './db/data-dir-lock';
import { openDatabase, type DatabaseHandle } from './db/client';
import type { DataRepairReport } from './db/data-repairs';
import { waitForCallsToEnd } from './health/drain';
import { Draining } from './health/draining';
import { processLoggerOptions } from './logging/logger-options';

const SHUTDOWN_GRACE_MS = 10_000;

function fail(message: string): never {
  process.stderr.write(`voxline: ${message}\n`);
  process.exit(1);
}

async function openConfiguredDatabase(config: Config): Promise<{ database: DatabaseHandle; unlock: () => void }> {
  if (config.DATABASE_URL) {
    return { database: await openDatabase({ kind: 'postgres', url: config.DATABASE_URL }), unlock: () => {} };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    return { database: await openDatabase({ kind: 'pglite', dataDir: config.dataDir }), unlock };
  } catch (error) {
    unlock();
    throw error;
  }
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  // `npm start` checks the configuration before spending time on the web build.
  if (process.argv.includes('--check-config')) return;

  let opened: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    opened = await openConfiguredDatabase(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    const target = config.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : `the embedded database in ${config.dataDir}`;
    fail(`cannot open ${target}: ${(error as Error).message}`);
  }
  const { database, unlock } = opened;

  let repairs: DataRepairReport[];
  try {
    repairs = await database.migrate();
  } catch (error) {
    await database.close().catch(() => {});
    unlock();
    fail(`database migration failed: ${(error as Error).message}`);
  }

  const draining = new Draining();
  const logging = processLoggerOptions(config, process.stdout.isTTY === true);
  const app = await buildApp({ config, database, draining, logger: logging.options });
  if (logging.warning) app.log.warn(logging.warning);
  for (const warning of unsafeAllowancesInUse(config)) app.log.warn(warning);
  for (const repair of repairs) {
    app.log.info({ repair: repair.name, changed: repair.changed }, 'data repair done');
    for (const skipped of repair.skipped) app.log.warn({ repair: repair.name }, skipped);
  }
  // After the app's own shutdown, which still needs the database to finalise the calls it ends:
  // an onClose hook here would run before the app's.
  const close = async () => {
    try {
      await app.close();
    } finally {
      await database.close().catch(() => {});
      unlock();
    }
  };

  let stopping = false;
  const stop = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    draining.begin();
    setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      unlock();
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    close().then(
      () => process.exit(exitCode),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // The first SIGTERM drains (docs/deploy.md#draining): no new calls or listening tabs, the calls
  // up go on until they end or DRAIN_SECONDS pass, then the clean shutdown ends what is left. A
  // second SIGTERM, or SIGINT (Ctrl-C), shuts down at once.
  const drain = () => {
    draining.begin();
    app.log.info({ calls: draining.callsInProgress, drainSeconds: config.DRAIN_SECONDS }, 'draining: taking no new calls; waiting for the calls in progress to end');
    void waitForCallsToEnd({ callsInProgress: () => draining.callsInProgress, limitMs: config.DRAIN_SECONDS * 1000 }).then((end) => {
      if (end === 'calls-ended') app.log.info('drained: no call in progress; shutting down');
      else app.log.warn({ calls: draining.callsInProgress }, 'drain limit (DRAIN_SECONDS) reached; ending the calls still in progress');
      stop(0);
    });
  };
  const stopOnSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGTERM' && !draining.active && !stopping) return drain();
    if (!stopping) app.log.info({ signal }, 'shutting down');
    stop(0);
  };
  process.on('SIGINT', stopOnSignal);
  process.on('SIGTERM', stopOnSignal);
  // A fault nothing caught leaves the process in a state nobody planned for: it is logged, and the
  // instance shuts down at once, without draining, as on SIGINT (calls ended cleanly, records
  // finalised) and exits with 1.
  process.on('unhandledRejection', (reason) => {
    app.log.fatal({ err: reason, stopping }, 'unhandled promise rejection; shutting down');
    stop(1);
  });
  process.on('uncaughtException', (error, origin) => {
    app.log.fatal({ err: error, origin, stopping }, 'uncaught exception; shutting down');
    stop(1);
  });

  try {
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (error) {
    await close().catch(() => {});
    fail(`cannot listen on ${config.HOST}:${config.PORT}: ${(error as Error).message}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const listening = typeof address === 'object' && address ? address.address : config.HOST;
  app.log.info({ url: `http://localhost:${port}`, listening, database: database.driver }, `Voxline is ready at http://localhost:${port}`);
}

void main();
