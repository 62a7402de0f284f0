import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, openTestDatabase } from '../../../tests/support/test-database';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { runExclusively } from './job-lease';
import { jobLeases } from './schema';

/** A job's work that waits until the test lets it finish. */
function heldWork<T>(result: T) {
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  const started: string[] = [];
  return {
    started,
    finish,
    as: (instance: string) => async () => {
      started.push(instance);
      await gate;
      return result;
    },
  };
}

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function leaseOf(name: string) {
  const [row] = await database.db.select().from(jobLeases).where(eq(jobLeases.name, name));
  return row;
}

describe('runExclusively', () => {
  it('runs the work of exactly one of two instances that try at once, then releases the lease and records the run', async () => {
    const work = heldWork('done');
    const first = runExclusively(database.db, 'at-once', 60_000, 'instance-a', work.as('instance-a'));
    const second = runExclusively(database.db, 'at-once', 60_000, 'instance-b', work.as('instance-b'));
    // The winner waits on the gate, so whichever settles first is the one refused.
    expect(await Promise.race([first, second])).toEqual({ ran: false });
    // The winner's work starts once its lease's update has answered, which can come just after the
    // refusal (CI caught the refusal first once): waited for, then counted.
    await vi.waitFor(() => expect(work.started).toHaveLength(1));
    const holder = work.started[0]!;
    expect(await leaseOf('at-once')).toMatchObject({ heldBy: holder, lastRunAt: null });

    work.finish();
    const outcomes = await Promise.all([first, second]);
    expect(outcomes.filter((outcome) => outcome.ran)).toEqual([{ ran: true, result: 'done' }]);
    expect(await leaseOf('at-once')).toMatchObject({ heldBy: null, heldUntil: null, lastRunAt: expect.any(Date) });
  }, 60_000);

  it('waits for a live holder, and takes the lease of one that crashed once its time has run out', async () => {
    // A holder that died mid-run: its lease stays in the table until held_until.
    await database.db.insert(jobLeases).values({ name: 'crashed', heldBy: 'dead-instance', heldUntil: sql`now() + interval '1 minute'` });
    let runs = 0;
    const work = async () => (runs += 1);
    expect(await runExclusively(database.db, 'crashed', 60_000, 'instance-b', work)).toEqual({ ran: false });
    expect(runs).toBe(0);

    await database.db.update(jobLeases).set({ heldUntil: sql`now() - interval '1 second'` }).where(eq(jobLeases.name, 'crashed'));
    expect(await runExclusively(database.db, 'crashed', 60_000, 'instance-b', work)).toEqual({ ran: true, result: 1 });
    expect(await leaseOf('crashed')).toMatchObject({ heldBy: null, lastRunAt: expect.any(Date) });
  });

  it('releases the lease of a run that failed without recording it as run, and passes the failure on', async () => {
    const failing = async () => {
      throw new Error('the store is away');
    };
    await expect(runExclusively(database.db, 'failing', 60_000, 'instance-a', failing)).rejects.toThrow('the store is away');
    expect(await leaseOf('failing')).toMatchObject({ heldBy: null, heldUntil: null, lastRunAt: null });
    expect(await runExclusively(database.db, 'failing', 60_000, 'instance-b', async () => 'ran')).toEqual({ ran: true, result: 'ran' });
  });

  it('skips a job that any instance ran more recently than notWithinMs', async () => {
    expect(await runExclusively(database.db, 'due', 60_000, 'instance-a', async () => 1, { notWithinMs: 60_000 })).toEqual({ ran: true, result: 1 });
    expect(await runExclusively(database.db, 'due', 60_000, 'instance-b', async () => 2, { notWithinMs: 60_000 })).toEqual({ ran: false });
    await database.db.update(jobLeases).set({ lastRunAt: sql`now() - interval '61 seconds'` }).where(eq(jobLeases.name, 'due'));
    expect(await runExclusively(database.db, 'due', 60_000, 'instance-b', async () => 2, { notWithinMs: 60_000 })).toEqual({ ran: true, result: 2 });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('runExclusively on two instances sharing one PostgreSQL', () => {
  it('lets exactly one of them run', async () => {
    const shared = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    const one = await openDatabase({ kind: 'postgres', url: shared.url });
    const two = await openDatabase({ kind: 'postgres', url: shared.url });
    try {
      await one.migrate();
      const work = heldWork('done');
      const first = runExclusively(one.db, 'retention', 60_000, 'instance-one', work.as('instance-one'));
      const second = runExclusively(two.db, 'retention', 60_000, 'instance-two', work.as('instance-two'));
      expect(await Promise.race([first, second])).toEqual({ ran: false });
      work.finish();
      expect((await Promise.all([first, second])).filter((outcome) => outcome.ran)).toHaveLength(1);
      expect(work.started).toHaveLength(1);
    } finally {
      await one.close();
      await two.close();
      await shared.drop();
    }
  });
});
