import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from '../auth/schema';

/** docs/product.md §3 preferences, one row per user once they save any; defaults live in src/common. */
export const preferences = pgTable('preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  darkMode: boolean('dark_mode').notNull(),
  notifications: boolean('notifications').notNull(),
  callHistory: boolean('call_history').notNull(),
  dataUsage: boolean('data_usage').notNull(),
  autoAnswer: boolean('auto_answer').notNull(),
  /** Record calls from their start (Premium and Platinum, issue 19); off until the user turns it on. */
  recordCalls: boolean('record_calls').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
