import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { PaymentStatus } from '../../../../common/api/payments';

/**
 * The built-in test checkout's own record of a transaction, as a provider keeps one on its side:
 * Voxline's payments reach it only through the provider interface.
 */
export const sandboxTransactions = pgTable('sandbox_transactions', {
  reference: text('reference').primaryKey(),
  email: text('email').notNull(),
  amountMinor: integer('amount_minor').notNull(),
  currency: text('currency').notNull(),
  callbackUrl: text('callback_url').notNull(),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
  status: text('status').$type<PaymentStatus>().notNull(),
  gatewayResponse: text('gateway_response'),
  cardBrand: text('card_brand'),
  last4: text('last4'),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
