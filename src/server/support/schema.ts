import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Tier } from '../../common/plans';
import { user } from '../auth/schema';

/** A request a user sent to support (docs/decisions/038-support-by-plan.md): kept before any mail is tried. */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** The plan in force when it was sent, whose support level set reply_due_at. */
    tier: text('tier').$type<Tier>().notNull(),
    replyDueAt: timestamp('reply_due_at', { withTimezone: true }).notNull(),
    /** When the support inbox took the mail; null while it has not (the user is told to send it again). */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('support_requests_user_created_idx').on(table.userId, table.createdAt)],
);
