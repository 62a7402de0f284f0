import type { Database } from '../db/client';
import type { ScheduledJob } from '../jobs/job-scheduler';
import { applyRetention, type AudioFiles } from './retention';

/**
 * A run takes seconds (batches of a few hundred rows); the lease is far longer, so only a crashed
 * holder's lease ever runs out, and then the job waits this long at most for another instance.
 */
const RETENTION_LEASE_MS = 15 * 60_000;

/** The retention rules as a scheduled job (docs/operations.md#scheduled-jobs), every RETENTION_INTERVAL_MS. */
export function retentionJob(deps: { db: Database; files: AudioFiles; log: { warn(obj: object, msg: string): void }; intervalMs: number }): ScheduledJob {
  const { db, files, log, intervalMs } = deps;
  return {
    name: 'retention',
    intervalMs,
    leaseMs: RETENTION_LEASE_MS,
    run: (signal) => applyRetention({ db, files, log, signal }),
  };
}
