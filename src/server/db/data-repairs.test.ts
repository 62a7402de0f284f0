import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../tests/support/test-database';
import { user } from '../auth/schema';
import type { DatabaseHandle } from './client';
import type { Database } from './database';
import { dataRepairList, runDataRepairs, type DataRepair } from './data-repairs';
import { dataRepairs } from './data-repairs-table';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

/** A repair that counts its runs. */
function countingRepair(name: string, run: DataRepair['run'] = async () => ({ changed: 1, skipped: [] })) {
  const repair = {
    name,
    runs: 0,
    run: (db: Database) => {
      repair.runs += 1;
      return run(db);
    },
  };
  return repair;
}

describe('data repairs', () => {
  it('are all recorded as done on a database that migrate() brought up to date', async () => {
    const done = await database.db.select({ name: dataRepairs.name }).from(dataRepairs);
    expect(done.map((row) => row.name).sort()).toEqual(dataRepairList.map((repair) => repair.name).sort());
    expect(await database.migrate()).toEqual([]);
  });

  it('run once each, in order, and report what they did', async () => {
    const first = countingRepair('test-first', async () => ({ changed: 2, skipped: ['one left'] }));
    const second = countingRepair('test-second');
    expect(await runDataRepairs(database.db, [first, second])).toEqual([
      { name: 'test-first', changed: 2, skipped: ['one left'] },
      { name: 'test-second', changed: 1, skipped: [] },
    ]);
    expect(await runDataRepairs(database.db, [first, second])).toEqual([]);
    expect([first.runs, second.runs]).toEqual([1, 1]);
  });

  it('leave no record and no change when a repair fails, so that the next start runs it again', async () => {
    const id = 'data-repair-test-user';
    let fail = true;
    const repair = countingRepair('test-failing', async (db) => {
      await db.insert(user).values({ id, name: 'Half done', email: `${id}@example.com` });
      if (fail) throw new Error('repair failed');
      return { changed: 1, skipped: [] };
    });

    await expect(runDataRepairs(database.db, [repair])).rejects.toThrow('repair failed');
    expect(await database.db.select().from(user).where(eq(user.id, id))).toEqual([]);
    expect(await database.db.select().from(dataRepairs).where(eq(dataRepairs.name, 'test-failing'))).toEqual([]);

    fail = false;
    expect(await runDataRepairs(database.db, [repair])).toEqual([{ name: 'test-failing', changed: 1, skipped: [] }]);
    expect(repair.runs).toBe(2);
  });
});
