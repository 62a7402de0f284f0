import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import type { CallRecord } from '../../common/api/calls';
import type { CallMediaFigures } from '../../common/call-quality';
import type { CallOutcome } from '../../common/calls';
import type { MediaTransport } from '../../common/media';
import type { VoiceSettings } from '../../common/voice';
import type { Database } from '../db/client';
import { recordingsOfCalls } from '../recordings/recordings-service';
import { voicemailsOfCalls } from '../voicemail/messages';
import { calls } from './schema';

type CallRow = typeof calls.$inferSelect;

export function toCallRecord(row: CallRow): CallRecord {
  return {
    id: row.id,
    direction: row.direction,
    from: row.fromNumber,
    to: row.toNumber,
    state: row.state,
    outcome: row.outcome,
    reason: row.reason,
    startedAt: row.startedAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    durationSec: row.durationSec,
    mediaTransport: row.mediaTransport,
    mediaFigures: row.mediaFigures,
    voice: row.voiceSettings ? { settings: row.voiceSettings as VoiceSettings, contactName: row.voiceContactName } : null,
  };
}

export async function findCall(db: Database, userId: string, callId: string): Promise<CallRow | undefined> {
  const [row] = await db.select().from(calls).where(and(eq(calls.id, callId), eq(calls.userId, userId)));
  return row;
}

export async function listHistory(db: Database, userId: string, limit = 100): Promise<CallRecord[]> {
  const rows = await db
    .select()
    .from(calls)
    .where(and(eq(calls.userId, userId), eq(calls.hiddenFromHistory, false)))
    .orderBy(desc(calls.startedAt))
    .limit(limit);
  // A missed call links to the message its caller left (docs/calls.md#voicemail).
  const messages = await voicemailsOfCalls(db, userId, rows.filter((row) => row.direction === 'inbound' && !row.answeredAt).map((row) => row.id));
  // A recorded call offers its recording to play, download or delete (docs/product.md §2 Call History).
  const recorded = await recordingsOfCalls(db, userId, rows.filter((row) => row.answeredAt).map((row) => row.id));
  return rows.map((row) => ({ ...toCallRecord(row), voicemailId: messages.get(row.id) ?? null, recordingId: recorded.get(row.id) ?? null }));
}

/** The user's calls ringing now, oldest first: inbound calls to `toNumbers` (E.164) not yet answered or ended. */
export async function listRingingCalls(db: Database, userId: string, toNumbers: string[]): Promise<CallRow[]> {
  if (toNumbers.length === 0) return [];
  return db
    .select()
    .from(calls)
    .where(and(eq(calls.userId, userId), eq(calls.direction, 'inbound'), eq(calls.state, 'ringing'), inArray(calls.toNumber, toNumbers)))
    .orderBy(asc(calls.startedAt));
}

/** `note`: what answered when it was not a person ('Voicemail'), for a page that reads the record before its call.state. */
export async function markAnswered(db: Database, callId: string, answeredAt: Date, note: string | null = null) {
  await db.update(calls).set({ state: 'answered', answeredAt, ...(note ? { reason: note } : {}) }).where(and(eq(calls.id, callId), ne(calls.state, 'ended')));
}

export async function markRinging(db: Database, callId: string) {
  await db.update(calls).set({ state: 'ringing' }).where(and(eq(calls.id, callId), eq(calls.state, 'dialing')));
}

/** Ends the record once: duration counts from answer to end, whole seconds. */
export async function finaliseCall(db: Database, callId: string, outcome: CallOutcome, reason: string | null, endedAt: Date): Promise<CallRow | undefined> {
  const [current] = await db.select().from(calls).where(eq(calls.id, callId));
  if (!current || current.state === 'ended') return current;
  const durationSec = current.answeredAt ? Math.max(0, Math.round((endedAt.getTime() - current.answeredAt.getTime()) / 1000)) : 0;
  const [ended] = await db
    .update(calls)
    .set({ state: 'ended', outcome, reason, endedAt, durationSec })
    .where(and(eq(calls.id, callId), ne(calls.state, 'ended')))
    .returning();
  if (ended) return ended;
  // Another instance ended it between the read and the update: answer the record as it now is.
  const [now] = await db.select().from(calls).where(eq(calls.id, callId));
  return now;
}

/** How the participant's browser audio travels, once it has connected (docs/calls.md#media). */
export async function recordMediaTransport(db: Database, userId: string, callId: string, transport: MediaTransport) {
  await db
    .update(calls)
    .set({ mediaTransport: transport })
    .where(and(eq(calls.id, callId), eq(calls.userId, userId)));
}

/** What the participant's browser measured of the call's audio; false when the user has no such call. */
export async function recordMediaFigures(db: Database, userId: string, callId: string, figures: CallMediaFigures): Promise<boolean> {
  const updated = await db
    .update(calls)
    .set({ mediaFigures: figures })
    .where(and(eq(calls.id, callId), eq(calls.userId, userId)))
    .returning({ id: calls.id });
  return updated.length > 0;
}
