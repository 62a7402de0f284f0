import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The server instances sharing the database, each beating every few seconds. A call record open
 * under an instance that stopped beating was left behind by a crash, and the others close it.
 */
export const serverInstances = pgTable('server_instances', {
  id: text('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  /** When the instance began to drain (SIGTERM): it takes no new calls or listening tabs from then. */
  drainingSince: timestamp('draining_since', { withTimezone: true }),
});
