import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from '../auth/schema';

/**
 * 'renting' holds the number while the provider is asked (the unique phone_number decides a race
 * before anyone pays), 'rented' once it is the user's, 'releasing' while the provider lets it go.
 * Only 'rented' rows are shown.
 */
export type PhoneNumberStatus = 'renting' | 'rented' | 'releasing';

/** docs/product.md §3 user phone number: one row per rented number, which belongs to exactly one user. */
export const phoneNumbers = pgTable(
  'phone_numbers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** E.164. */
    phoneNumber: text('phone_number').notNull().unique(),
    country: text('country').notNull(),
    friendlyName: text('friendly_name'),
    /** Reachable: rented and its inbound calls routed to Voxline. */
    active: boolean('active').notNull().default(true),
    status: text('status').$type<PhoneNumberStatus>().notNull().default('renting'),
    /** Monthly price in minor units (cents) of `currency`, as the provider quoted it. */
    monthlyCostMinor: integer('monthly_cost_minor').notNull().default(0),
    currency: text('currency').notNull().default('USD'),
    /** The telephony provider that rented it (TELEPHONY at the time): local or vonage. */
    provider: text('provider').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('phone_numbers_user_id_idx').on(table.userId)],
);
