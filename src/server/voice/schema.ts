import { sql } from 'drizzle-orm';
import { check, doublePrecision, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { VoiceType } from '../../common/voice';
import { user } from '../auth/schema';

/**
 * docs/product.md §3 voice settings, one row per user once they save any; no row is the default voice.
 * Double precision keeps 1.1 exactly the number JavaScript sent; the checks mirror docs/product.md §5.
 */
export const voiceSettings = pgTable(
  'voice_settings',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    voiceType: text('voice_type').$type<VoiceType>().notNull(),
    pitch: doublePrecision('pitch').notNull(),
    speed: doublePrecision('speed').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('voice_settings_pitch_range', sql`${table.pitch} between 0.5 and 2`),
    check('voice_settings_speed_range', sql`${table.speed} between 0.5 and 2`),
  ],
);
