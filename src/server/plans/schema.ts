import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { Tier } from '../../common/plans';
import { user } from '../auth/schema';

/**
 * docs/product.md §3 subscription: one row per user who has ever paid. No row is Free. A paid tier runs until
 * expires_at; without expires_at, until updated_at + 30 days (docs/product.md §9).
 */
export const subscriptions = pgTable('subscriptions', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  tier: text('tier').$type<Tier>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
