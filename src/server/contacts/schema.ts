import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { VoiceSettings } from '../../common/voice';
import { user } from '../auth/schema';

/** docs/product.md §3 contact: a user's address book entry; phone_number in E.164. */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phoneNumber: text('phone_number').notNull(),
    email: text('email'),
    /** The voice calls to this contact use (issue 20 item 5); null uses the caller's own settings. */
    voiceSettings: jsonb('voice_settings').$type<VoiceSettings>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('contacts_user_id_idx').on(table.userId)],
);
