import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from '../auth/schema';
import { calls } from '../calls/schema';
import type { StoredAudioState } from '../storage/object-store';

/**
 * A call recording (issue 19, docs/product.md): one Ogg Opus file of two channels, the user's voice
 * as the far side heard it and the far side's voice, written as the call goes on the instance that
 * holds the call, then kept in the object store under object_key (never shown to the browser).
 */
export const recordings = pgTable(
  'recordings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The user's own record of the call; kept when history retention removes the record. */
    callId: uuid('call_id').references(() => calls.id, { onDelete: 'set null' }),
    objectKey: text('object_key').notNull(),
    state: text('state').$type<StoredAudioState>().notNull(),
    /** The instance writing the file while state is 'recording': a restart there finishes what it left. */
    instanceId: text('instance_id'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    durationMs: integer('duration_ms').notNull().default(0),
    bytes: integer('bytes').notNull().default(0),
    /** When the retention job may delete it, fixed from the plan in force when it was made. */
    retainUntil: timestamp('retain_until', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('recordings_user_started_idx').on(table.userId, table.startedAt),
    index('recordings_call_idx').on(table.callId),
    uniqueIndex('recordings_object_key_idx').on(table.objectKey),
    index('recordings_retain_until_idx').on(table.retainUntil),
  ],
);
