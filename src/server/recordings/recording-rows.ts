import { and, eq, inArray } from 'drizzle-orm';
import { retainUntil, type Tier } from '../../common/plans';
import type { Database } from '../db/client';
import type { StoredAudioState } from '../storage/object-store';
import type { RecordedFile } from './recording-file';
import { recordings } from './schema';

export const RECORDING_CONTENT_TYPE = 'audio/ogg';

/** Where a recording's file lives in the object store; the browser never sees it. */
export function recordingKey(userId: string, recordingId: string): string {
  return `recordings/${userId}/${recordingId}.ogg`;
}

/** The row of a recording that starts now on `instanceId`, kept as long as `tier`'s plan says. */
export async function insertRecording(db: Database, row: { id: string; userId: string; callId: string; tier: Tier; instanceId: string; startedAt: Date }) {
  await db.insert(recordings).values({
    id: row.id,
    userId: row.userId,
    callId: row.callId,
    objectKey: recordingKey(row.userId, row.id),
    state: 'recording',
    instanceId: row.instanceId,
    startedAt: row.startedAt,
    retainUntil: retainUntil(row.tier, 'recordings', row.startedAt),
  });
}

/**
 * The recording's file is finished: what it came to, and no instance writes it any more. The store
 * may have taken it already (`markStored` ran first): 'saved' stays.
 */
export async function finishRecording(db: Database, id: string, file: RecordedFile, endedAt: Date) {
  await db
    .update(recordings)
    .set({ durationMs: Math.round(file.durationMs), bytes: file.bytes, endedAt, instanceId: null })
    .where(eq(recordings.id, id));
  await db
    .update(recordings)
    .set({ state: file.state })
    .where(and(eq(recordings.id, id), eq(recordings.state, 'recording')));
}

/** The object store took the file that waited for it. */
export async function markStored(db: Database, objectKey: string) {
  await db
    .update(recordings)
    .set({ state: 'saved' satisfies StoredAudioState })
    .where(and(eq(recordings.objectKey, objectKey), inArray(recordings.state, ['recording', 'pending_upload'])));
}
