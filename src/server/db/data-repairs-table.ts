import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The data repairs done on this database (src/server/db/data-repairs.ts), each once. */
export const dataRepairs = pgTable('data_repairs', {
  name: text('name').primaryKey(),
  doneAt: timestamp('done_at', { withTimezone: true }).notNull().defaultNow(),
});
