import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Voicemail, VoicemailList } from '../../common/api/voicemail';
import type { Database } from '../db/client';
import { isUuid } from '../db/errors';
import { AppError } from '../http/app-error';
import { voicemails } from './schema';

type VoicemailRow = typeof voicemails.$inferSelect;

const NO_SUCH_VOICEMAIL = 'No such voicemail';

/** How many messages the Voicemail page lists at most, newest first. */
const LIST_LIMIT = 200;

function toVoicemail(row: VoicemailRow): Voicemail {
  return {
    id: row.id,
    from: row.fromNumber,
    to: row.toNumber,
    createdAt: row.createdAt.toISOString(),
    durationSec: Math.round(row.durationMs / 1000),
    heard: row.heardAt !== null,
    callId: row.callId,
    state: row.state,
  };
}

/** The user's message `id`; another user's, or none, is 404 alike. */
export async function findVoicemail(db: Database, userId: string, id: string): Promise<VoicemailRow> {
  const [row] = isUuid(id) ? await db.select().from(voicemails).where(and(eq(voicemails.id, id), eq(voicemails.userId, userId))) : [];
  if (!row) throw AppError.notFound(NO_SUCH_VOICEMAIL);
  return row;
}

/** The user's messages, newest first, and how many are not heard yet. */
export async function listVoicemail(db: Database, userId: string): Promise<VoicemailList> {
  const rows = await db.select().from(voicemails).where(eq(voicemails.userId, userId)).orderBy(desc(voicemails.createdAt)).limit(LIST_LIMIT);
  const [unheard] = await db
    .select({ n: count() })
    .from(voicemails)
    .where(and(eq(voicemails.userId, userId), isNull(voicemails.heardAt)));
  return { voicemails: rows.map(toVoicemail), unheard: unheard?.n ?? 0 };
}

/** Marks the message heard, or not heard again. */
export async function markVoicemail(db: Database, userId: string, id: string, heard: boolean): Promise<Voicemail> {
  const row = await findVoicemail(db, userId, id);
  const [updated] = await db
    .update(voicemails)
    .set({ heardAt: heard ? (row.heardAt ?? new Date()) : null })
    .where(and(eq(voicemails.id, row.id), eq(voicemails.userId, userId)))
    .returning();
  if (!updated) throw AppError.notFound(NO_SUCH_VOICEMAIL);
  return toVoicemail(updated);
}

/** The ids of the messages left on these call records, by record id (Call History links them). */
export async function voicemailsOfCalls(db: Database, userId: string, callIds: string[]): Promise<Map<string, string>> {
  if (callIds.length === 0) return new Map();
  const rows = await db
    .select({ id: voicemails.id, callId: voicemails.callId })
    .from(voicemails)
    .where(and(eq(voicemails.userId, userId), inArray(voicemails.callId, callIds)));
  return new Map(rows.flatMap(({ id, callId }) => (callId ? [[callId, id] as const] : [])));
}
