import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';

/**
 * A migrated database of this test file's own: PGlite in memory from the run's snapshot, or,
 * when TEST_DATABASE_URL is set, a new PostgreSQL database created from it and dropped afterwards.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
    const client = new PGlite({ loadDataDir: new Blob([snapshot]) });
    return openDatabase({ kind: 'pglite', client });
  }

  const created = await createPostgresDatabase(adminUrl);
  const database = await openDatabase({ kind: 'postgres', url: created.url });
  await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}

/** A new, empty PostgreSQL database on the server of `adminUrl`: its URL, and how to drop it. */
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `voxline_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
