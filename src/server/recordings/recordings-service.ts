import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Recording, StorageUsage } from '../../common/api/recordings';
import type { Database } from '../db/client';
import { isUuid } from '../db/errors';
import { AppError } from '../http/app-error';
import { voicemails } from '../voicemail/schema';
import { recordings } from './schema';

type RecordingRow = typeof recordings.$inferSelect;

const NO_SUCH_RECORDING = 'No such recording';
const RECORDING_NOT_SAVED = 'This recording could not be saved, so there is no audio to play';
export const RECORDING_IN_PROGRESS = 'This call is still being recorded: stop the recording or end the call, then delete it';
export const STORE_UNREACHABLE_ON_DELETE = 'The recording could not be deleted because storage is not reachable. It is kept; try again in a moment.';

/** How many recordings the list answers at most, newest first. */
const LIST_LIMIT = 200;

function toRecording(row: RecordingRow): Recording {
  return {
    id: row.id,
    callId: row.callId,
    startedAt: row.startedAt.toISOString(),
    durationSec: Math.round(row.durationMs / 1000),
    bytes: row.bytes,
    state: row.state,
  };
}

/** The user's recording `id`; another user's, a made-up id or anything else (an object key) is 404 alike. */
async function findRecording(db: Database, userId: string, id: string): Promise<RecordingRow> {
  const [row] = isUuid(id) ? await db.select().from(recordings).where(and(eq(recordings.id, id), eq(recordings.userId, userId))) : [];
  if (!row) throw AppError.notFound(NO_SUCH_RECORDING);
  return row;
}

/** The user's recording whose audio can be played: one whose file was lost has none. */
export async function playableRecording(db: Database, userId: string, id: string): Promise<RecordingRow> {
  const row = await findRecording(db, userId, id);
  if (row.state === 'failed') throw AppError.notFound(RECORDING_NOT_SAVED);
  return row;
}

export async function listRecordings(db: Database, userId: string): Promise<Recording[]> {
  const rows = await db.select().from(recordings).where(eq(recordings.userId, userId)).orderBy(desc(recordings.startedAt)).limit(LIST_LIMIT);
  return rows.map(toRecording);
}

/** Where the audio files are: the local spool and the object store (storage/). */
export interface RecordingFiles {
  /** Removes the object wherever it is; fails when the store cannot be reached. */
  delete(key: string): Promise<void>;
}

/**
 * Deletes a recording: its file first, from the spool and the store, then its row, so that a store
 * that cannot be reached leaves the recording listed (and playable) rather than a row pointing at
 * nothing, or a file nobody can reach.
 */
export async function deleteRecording(db: Database, files: RecordingFiles, userId: string, id: string): Promise<void> {
  const row = await findRecording(db, userId, id);
  if (row.state === 'recording') throw AppError.conflict(RECORDING_IN_PROGRESS);
  try {
    await files.delete(row.objectKey);
  } catch (error) {
    throw new AppError(503, 'storage_unavailable', STORE_UNREACHABLE_ON_DELETE, undefined, { cause: error });
  }
  await db.delete(recordings).where(and(eq(recordings.id, row.id), eq(recordings.userId, userId)));
}

/** The bytes the user's kept files take: recordings and voicemail, those whose file was lost left out. */
export async function storageUsage(db: Database, userId: string): Promise<StorageUsage> {
  const total = (bytes: typeof recordings.bytes | typeof voicemails.bytes) => sql<number>`coalesce(sum(${bytes}), 0)`.mapWith(Number);
  const [fromRecordings] = await db
    .select({ bytes: total(recordings.bytes) })
    .from(recordings)
    .where(and(eq(recordings.userId, userId), ne(recordings.state, 'failed')));
  const [fromVoicemail] = await db
    .select({ bytes: total(voicemails.bytes) })
    .from(voicemails)
    .where(and(eq(voicemails.userId, userId), ne(voicemails.state, 'failed')));
  return { recordingsBytes: fromRecordings?.bytes ?? 0, voicemailBytes: fromVoicemail?.bytes ?? 0 };
}

/**
 * The recording Call History offers for each of these call records, by record id: the latest that
 * can be played (saved, or written and waiting for the store). One being written, or lost, is not offered.
 */
export async function recordingsOfCalls(db: Database, userId: string, callIds: string[]): Promise<Map<string, string>> {
  if (callIds.length === 0) return new Map();
  const rows = await db
    .select({ id: recordings.id, callId: recordings.callId })
    .from(recordings)
    .where(and(eq(recordings.userId, userId), inArray(recordings.callId, callIds), inArray(recordings.state, ['saved', 'pending_upload'])))
    .orderBy(recordings.startedAt);
  // Oldest first: the latest of a call overwrites the ones before it.
  return new Map(rows.flatMap(({ id, callId }) => (callId ? [[callId, id] as const] : [])));
}
