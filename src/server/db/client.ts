import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './database';
import { runDataRepairs, type DataRepairReport } from './data-repairs';
import { timePgliteQueries, timePoolQueries, type QueryObserver } from './query-timing';
import * as schema from './schema';

export type { Database } from './database';

/** Where the database reports what no query sees. */
export interface DatabaseErrorLog {
  error(obj: object, msg: string): void;
}

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** Applies every pending migration, then the data repairs not yet done: resolves to what those did. */
  migrate(): Promise<DataRepairReport[]>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** From now on, failures that no query sees (a pooled PostgreSQL connection lost while idle) go to `log`. */
  logErrorsTo(log: DatabaseErrorLog): void;
  /** From now on, each query's time goes to `observe` (the metrics' voxline_db_query_duration_seconds). */
  timeQueriesWith(observe: QueryObserver): void;
  /** The PostgreSQL pool's connections now: open, idle, and queries waiting for one; null on the embedded database, which has no pool. */
  poolConnections(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

/** The PostgreSQL advisory lock Voxline's instances hold while one of them migrates. */
const MIGRATION_LOCK_KEY = 7_340_117;

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite'; client: PGlite };

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') return openPostgres(target.url);
  if ('client' in target) return wrapPglite(target.client);
  const dir = path.join(target.dataDir, 'pglite');
  // PGlite does not create parent folders itself.
  fs.mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir);
  await client.waitReady;
  return wrapPglite(client);
}

function wrapPglite(client: PGlite): DatabaseHandle {
  const timeQueriesWith = timePgliteQueries(client);
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Database,
    driver: 'pglite',
    migrate: async () => {
      await migratePglite(db, { migrationsFolder });
      return runDataRepairs(db as unknown as Database);
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    // The embedded database runs in this process: its failures reach the query that met them.
    logErrorsTo: () => {},
    timeQueriesWith,
    poolConnections: () => null,
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  const logErrorsTo = reportPoolErrors(pool);
  const timeQueriesWith = timePoolQueries(pool);
  const db = drizzlePostgres({ client: pool, schema });
  return {
    db: db as unknown as Database,
    driver: 'postgres',
    migrate: async () => {
      // Instances starting together take turns: the first applies the migrations and the data
      // repairs, the others then find nothing left to do instead of racing to create the same tables.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        const locked = drizzlePostgres({ client, schema });
        await migratePostgres(locked, { migrationsFolder });
        return await runDataRepairs(locked as unknown as Database);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    logErrorsTo,
    timeQueriesWith,
    poolConnections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/**
 * Listens to the pool's 'error' event (an idle client losing its connection), which would crash
 * the process unheard, and logs it once given a log: the database is opened before the app's
 * logger exists, and until then the next query reports a lost connection by itself.
 */
export function reportPoolErrors(pool: Pick<pg.Pool, 'on'>): (log: DatabaseErrorLog) => void {
  let log: DatabaseErrorLog | null = null;
  pool.on('error', (error) => log?.error({ err: error }, 'PostgreSQL: a pooled connection failed while idle; the pool opens a new one when needed'));
  return (given) => {
    log = given;
  };
}
