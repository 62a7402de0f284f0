import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Leases of scheduled jobs (such as retention): an instance runs a job only while it holds the
 * lease, so several instances never run it at once, and a crashed holder's lease runs out.
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  heldBy: text('held_by'),
  heldUntil: timestamp('held_until', { withTimezone: true }),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
});
