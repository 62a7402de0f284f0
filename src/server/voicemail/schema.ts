import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from '../auth/schema';
import { calls } from '../calls/schema';
import type { StoredAudioState } from '../storage/object-store';

/** A message left for a user whose call nobody answered (issue 19): mono Ogg Opus in the object store. */
export const voicemails = pgTable(
  'voicemails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The owner of the number that was called. */
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The owner's missed-call record, which links to this message. */
    callId: uuid('call_id').references(() => calls.id, { onDelete: 'set null' }),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    objectKey: text('object_key').notNull(),
    state: text('state').$type<StoredAudioState>().notNull(),
    instanceId: text('instance_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    durationMs: integer('duration_ms').notNull().default(0),
    bytes: integer('bytes').notNull().default(0),
    heardAt: timestamp('heard_at', { withTimezone: true }),
    retainUntil: timestamp('retain_until', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('voicemails_user_created_idx').on(table.userId, table.createdAt),
    uniqueIndex('voicemails_object_key_idx').on(table.objectKey),
    index('voicemails_retain_until_idx').on(table.retainUntil),
  ],
);

/** The greeting a user recorded in the browser; without one, callers hear the default shipped with the app. */
export const voicemailGreetings = pgTable('voicemail_greetings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  objectKey: text('object_key').notNull(),
  contentType: text('content_type').notNull(),
  durationMs: integer('duration_ms').notNull(),
  bytes: integer('bytes').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
