import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder, openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { createPostgresDatabase } from './test-database';

/**
 * A database of this test's own migrated up to `lastTag` only (e.g. '0007_provider-call-index'),
 * to hold rows as an older Voxline wrote them; its migrate() then starts it as today's Voxline does.
 * PGlite in memory, or, when TEST_DATABASE_URL is set, a new PostgreSQL database dropped on close.
 */
export async function openDatabaseAtMigration(lastTag: string): Promise<DatabaseHandle> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const client = new PGlite({ loadDataDir: await pgliteMigratedUpTo(lastTag) });
    return openDatabase({ kind: 'pglite', client });
  }

  const folder = migrationsUpTo(lastTag);
  try {
    const created = await createPostgresDatabase(adminUrl);
    const client = new pg.Client({ connectionString: created.url });
    await client.connect();
    try {
      await migratePostgres(drizzlePostgres({ client }), { migrationsFolder: folder });
    } finally {
      await client.end();
    }
    const database = await openDatabase({ kind: 'postgres', url: created.url });
    return {
      ...database,
      close: async () => {
        await database.close();
        await created.drop();
      },
    };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const pgliteSnapshots = new Map<string, Promise<Blob>>();

/** Migrating a fresh PGlite takes seconds: each test file does it once per tag, then loads the dump. */
function pgliteMigratedUpTo(lastTag: string): Promise<Blob> {
  let snapshot = pgliteSnapshots.get(lastTag);
  if (!snapshot) {
    snapshot = (async () => {
      const folder = migrationsUpTo(lastTag);
      const client = new PGlite();
      try {
        await migratePglite(drizzlePglite({ client }), { migrationsFolder: folder });
        return await client.dumpDataDir('none');
      } finally {
        await client.close();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    })();
    pgliteSnapshots.set(lastTag, snapshot);
  }
  return snapshot;
}

/** A copy of the migrations folder whose journal ends at `lastTag`. */
function migrationsUpTo(lastTag: string): string {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (end < 0) throw new Error(`no migration ${lastTag} in ${migrationsFolder}`);
  const entries = journal.entries.slice(0, end + 1);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-migrations-'));
  fs.mkdirSync(path.join(folder, 'meta'));
  fs.writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const { tag } of entries) fs.copyFileSync(path.join(migrationsFolder, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  return folder;
}
