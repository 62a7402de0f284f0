import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobLeases } from './schema';

export type LeasedRun<T> = { ran: true; result: T } | { ran: false };

export interface LeaseOptions {
  /** Skip the run when any instance finished one less than this long ago (the job is not due). */
  notWithinMs?: number;
}

/**
 * Runs `work` only while this instance holds job `name`'s lease, so that of several instances
 * sharing the database one runs it at a time. The lease is taken by one atomic UPDATE: free, run
 * out (its holder crashed) or already this instance's. Times are the database's, so instances whose
 * clocks differ still agree on when a lease runs out. A run longer than `leaseMs` may meet another
 * instance's: leases are sized well above a job's longest run.
 */
export async function runExclusively<T>(
  db: Database,
  name: string,
  leaseMs: number,
  instanceId: string,
  work: () => Promise<T>,
  { notWithinMs }: LeaseOptions = {},
): Promise<LeasedRun<T>> {
  await db.insert(jobLeases).values({ name }).onConflictDoNothing();
  const free = or(isNull(jobLeases.heldUntil), lt(jobLeases.heldUntil, sql`now()`), eq(jobLeases.heldBy, instanceId));
  const due = notWithinMs === undefined ? undefined : or(isNull(jobLeases.lastRunAt), lt(jobLeases.lastRunAt, sql`now() - ${Math.round(notWithinMs)}::integer * interval '1 millisecond'`));
  const taken = await db
    .update(jobLeases)
    .set({ heldBy: instanceId, heldUntil: sql`now() + ${Math.round(leaseMs)}::integer * interval '1 millisecond'` })
    .where(and(eq(jobLeases.name, name), free, due))
    .returning({ name: jobLeases.name });
  if (taken.length === 0) return { ran: false };

  let finished = false;
  try {
    const result = await work();
    finished = true;
    return { ran: true, result };
  } finally {
    // Only this instance's own lease is released: one that ran out may be another's by now.
    await db
      .update(jobLeases)
      .set({ heldBy: null, heldUntil: null, ...(finished ? { lastRunAt: sql`now()` } : {}) })
      .where(and(eq(jobLeases.name, name), eq(jobLeases.heldBy, instanceId)));
  }
}
