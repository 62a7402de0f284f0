import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every message Voxline sends when no SMTP server is configured: kept, listed at /dev/outbox. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  links: jsonb('links').$type<string[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
