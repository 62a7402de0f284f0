import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { dataRepairList } from './data-repairs';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('instances starting together on one PostgreSQL database', () => {
  it('migrate it once between them, without failing', async () => {
    const name = `voxline_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: url.toString() })));
    try {
      const repairs = await Promise.all(instances.map((instance) => instance.migrate()));
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const applied = await check.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
      const tables = await check.query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_name = 'calls'");
      const repaired = await check.query<{ n: number }>('select count(*)::int as n from data_repairs');
      await check.end();
      expect(applied.rows[0]!.n).toBeGreaterThanOrEqual(7);
      expect(tables.rows[0]!.n).toBe(1);
      // The data repairs too: one instance runs them, the others find them done.
      expect(repaired.rows[0]!.n).toBe(dataRepairList.length);
      expect(repairs.map((reports) => reports.length).sort()).toEqual([0, 0, dataRepairList.length]);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
