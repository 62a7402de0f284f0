import { and, eq, isNull, notInArray, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { RecordedFile } from './recording-file';
import { finishRecording } from './recording-rows';
import { recordings } from './schema';

export interface RecordingAdoptionDependencies {
  db: Database;
  /**
   * Takes over the file a stopped instance left being written under `key` (the audio spool's
   * adopt), answering what it holds, its duration read from the file; null when this instance's
   * spool has no such file (another machine's disk may).
   */
  adopt: (key: string) => Promise<RecordedFile | null>;
  log: { warn(obj: object, msg: string): void };
}

/**
 * Finishes the recordings that instances no longer running were writing (a crash, a kill): the
 * file up to the last whole page is kept and stored, its row gets its length and state. Run with
 * each sweep of the instance registry, whose `running` set says which instances are alive.
 */
export async function adoptUnfinishedRecordings(deps: RecordingAdoptionDependencies, running: ReadonlySet<string>): Promise<number> {
  const left = await deps.db
    .select()
    .from(recordings)
    .where(and(eq(recordings.state, 'recording'), or(isNull(recordings.instanceId), notInArray(recordings.instanceId, [...running]))));
  let adopted = 0;
  for (const row of left) {
    try {
      const file = await deps.adopt(row.objectKey);
      if (!file) continue;
      await finishRecording(deps.db, row.id, file, new Date(row.startedAt.getTime() + file.durationMs));
      adopted += 1;
    } catch (error) {
      deps.log.warn({ err: error, recordingId: row.id }, 'could not finish a recording a stopped server left');
    }
  }
  return adopted;
}
