import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import { plans, tiers } from '../../common/plans';
import { calls } from '../calls/schema';
import type { Database } from '../db/client';
import { currentPlan } from '../plans/service';
import { recordings } from '../recordings/schema';
import type { ObjectStore, StoredAudioState } from '../storage/object-store';
import { voicemails } from '../voicemail/schema';

const DAY_MS = 86_400_000;
const DEFAULT_BATCH = 200;

export interface RetentionDependencies {
  db: Database;
  /** The object store, where every settled file is; a delete fails when the store cannot be reached. */
  files: AudioFiles;
  log: { warn(obj: object, msg: string): void };
  /** The moment the rules are applied at (tests move it). */
  now?: Date;
  /** Aborted when the app closes: the job stops between batches, the rest waits for the next run. */
  signal?: AbortSignal;
  batchSize?: number;
}

export interface RetentionReport {
  recordings: number;
  voicemails: number;
  calls: number;
  /** Files the store would not delete: their rows stay for the next run. */
  filesLeft: number;
}

export type AudioFiles = Pick<ObjectStore, 'delete'>;

interface ExpiredFile {
  id: string;
  objectKey: string;
}

type FileKind = 'recording' | 'voicemail';

/**
 * Files in the store, or lost. One being written, or in an instance's spool waiting for the store,
 * is that instance's until it settles (it cannot be past its time before then but for a store away
 * for its whole retention); the next run after it does deletes it.
 */
const settled: StoredAudioState[] = ['saved', 'failed'];

/**
 * The retention rules of the plans (src/common/plans.ts, docs/product.md §9), applied once:
 * recordings and voicemail whose retain_until has come (fixed when each was made, so a downgrade
 * keeps them until then), and ended call records older than the history days of the owner's plan
 * in force now. Nothing younger than its rule is touched.
 */
export async function applyRetention(deps: RetentionDependencies): Promise<RetentionReport> {
  const { db } = deps;
  const now = deps.now ?? new Date();
  const report: RetentionReport = { recordings: 0, voicemails: 0, calls: 0, filesLeft: 0 };
  await removeExpiredFiles(deps, 'recording', report, (after, limit) =>
    db
      .select({ id: recordings.id, objectKey: recordings.objectKey })
      .from(recordings)
      .where(and(lte(recordings.retainUntil, now), inArray(recordings.state, settled), after ? gt(recordings.id, after) : undefined))
      .orderBy(asc(recordings.id))
      .limit(limit),
    async (id) => void (await db.delete(recordings).where(eq(recordings.id, id))),
  );
  await removeExpiredFiles(deps, 'voicemail', report, (after, limit) =>
    db
      .select({ id: voicemails.id, objectKey: voicemails.objectKey })
      .from(voicemails)
      .where(and(lte(voicemails.retainUntil, now), inArray(voicemails.state, settled), after ? gt(voicemails.id, after) : undefined))
      .orderBy(asc(voicemails.id))
      .limit(limit),
    async (id) => void (await db.delete(voicemails).where(eq(voicemails.id, id))),
  );
  report.calls = await removeOldHistory(deps, now);
  return report;
}

/** The object first, then the row: a row never points at nothing, and a file the store keeps is tried again next run. */
async function removeExpiredFiles(
  { files, log, signal, batchSize = DEFAULT_BATCH }: RetentionDependencies,
  kind: FileKind,
  report: RetentionReport,
  expired: (after: string | null, limit: number) => Promise<ExpiredFile[]>,
  removeRow: (id: string) => Promise<void>,
) {
  let after: string | null = null;
  for (;;) {
    if (signal?.aborted) return;
    const batch = await expired(after, batchSize);
    for (const file of batch) {
      try {
        await files.delete(file.objectKey);
      } catch (error) {
        report.filesLeft += 1;
        log.warn({ err: error, kind, id: file.id }, 'retention: the store did not delete the file; its row stays for the next run');
        continue;
      }
      await removeRow(file.id);
      if (kind === 'recording') report.recordings += 1;
      else report.voicemails += 1;
    }
    if (batch.length < batchSize) return;
    after = batch.at(-1)!.id;
  }
}

/**
 * Call history follows the plan in force when the job runs (an upgrade keeps more, a lapse less),
 * read per owner with the plans service's own rule. Only owners with an ended call older than the
 * shortest history of any plan are looked at.
 */
async function removeOldHistory({ db, signal, batchSize = DEFAULT_BATCH }: RetentionDependencies, now: Date): Promise<number> {
  const shortest = Math.min(...tiers.map((tier) => plans[tier].retentionDays.history));
  const oldest = new Date(now.getTime() - shortest * DAY_MS);
  let removed = 0;
  let after: string | null = null;
  for (;;) {
    if (signal?.aborted) return removed;
    const owners = await db
      .selectDistinct({ userId: calls.userId })
      .from(calls)
      .where(and(eq(calls.state, 'ended'), lte(calls.startedAt, oldest), after ? gt(calls.userId, after) : undefined))
      .orderBy(asc(calls.userId))
      .limit(batchSize);
    for (const { userId } of owners) {
      const { tier } = await currentPlan(db, userId, now);
      const cutoff = new Date(now.getTime() - plans[tier].retentionDays.history * DAY_MS);
      const deleted = await db
        .delete(calls)
        .where(and(eq(calls.userId, userId), eq(calls.state, 'ended'), lte(calls.startedAt, cutoff)))
        .returning({ id: calls.id });
      removed += deleted.length;
    }
    if (owners.length < batchSize) return removed;
    after = owners.at(-1)!.userId;
  }
}

