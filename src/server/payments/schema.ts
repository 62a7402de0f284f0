import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { PaymentStatus } from '../../common/api/payments';
import type { PaidPlan, Tier } from '../../common/plans';
import { user } from '../auth/schema';

/**
 * One payment session: created by the server with its own reference, bound to one user and one
 * plan at the server's price. `activated_at` is set once, by whichever verification gets there
 * first (return, receipt or webhook); the plan is extended in the same transaction.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    plan: text('plan').$type<PaidPlan>().notNull(),
    /** The payment provider (PAYMENTS at the time): sandbox or paystack. */
    provider: text('provider').notNull(),
    /** The plan's price in cents, as shown. */
    amountUsdMinor: integer('amount_usd_minor').notNull(),
    /** What is charged, in kobo of `currency`. */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull(),
    /** 'pending' until a verification has heard from the provider; then the provider's last status. */
    status: text('status').$type<PaymentStatus | 'pending'>().notNull().default('pending'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paymentMethod: text('payment_method'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    /** The tier and expiry this payment gave, for its receipt. */
    grantedTier: text('granted_tier').$type<Tier>(),
    grantedUntil: timestamp('granted_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('payments_user_id_idx').on(table.userId)],
);
