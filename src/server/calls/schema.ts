import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { CallMediaFigures } from '../../common/call-quality';
import type { CallDirection, CallOutcome, CallState } from '../../common/calls';
import type { MediaTransport } from '../../common/media';
import { user } from '../auth/schema';

/** One row per participant's view of a call (docs/calls.md#a-call-and-its-legs); both rows of a conversation share conversation_id. */
export const calls = pgTable(
  'calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    direction: text('direction').$type<CallDirection>().notNull(),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    state: text('state').$type<CallState>().notNull(),
    outcome: text('outcome').$type<CallOutcome>(),
    reason: text('reason'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    durationSec: integer('duration_sec'),
    /** Calls to numbers outside Voxline count against the plan's minutes. */
    metered: boolean('metered').notNull(),
    /** Placed while Save Call History was off: kept for billing, left out of the history list. */
    hiddenFromHistory: boolean('hidden_from_history').notNull().default(false),
    voiceSettings: jsonb('voice_settings'),
    /** The contact whose voice preset the call used, named as the contact was then, for Call History. */
    voiceContactName: text('voice_contact_name'),
    providerCallId: text('provider_call_id'),
    /** The server instance carrying the call while it is open (src/server/instances). */
    instanceId: text('instance_id'),
    /** How this participant's browser audio travelled, once it connected (docs/calls.md#media). */
    mediaTransport: text('media_transport').$type<MediaTransport>(),
    /** What the participant's browser measured of the call's audio, sent once the call ended (docs/calls.md#call-details). */
    mediaFigures: jsonb('media_figures').$type<CallMediaFigures>(),
  },
  (table) => [
    index('calls_user_started_idx').on(table.userId, table.startedAt),
    // One active call per user: the database settles two tabs dialling at once.
    uniqueIndex('calls_one_active_per_user').on(table.userId).where(sql`${table.state} <> 'ended'`),
    // A provider's webhook may reach any instance: it finds the open call by the provider's id.
    index('calls_open_by_provider_call').on(table.providerCallId).where(sql`${table.state} <> 'ended'`),
  ],
);
