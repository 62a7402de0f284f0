import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { retentionJob } from '../retention/retention-job';
import type { AudioFiles } from '../retention/retention';
import { JobScheduler } from './job-scheduler';

export interface ScheduledJobsDependencies {
  db: Database;
  instanceId: string;
  config: Pick<Config, 'RETENTION_INTERVAL_MS'>;
  /** The object store the retention job deletes expired files from. */
  store: AudioFiles;
  /** The first run after start (default a minute). */
  firstRunDelayMs?: number;
}

/**
 * The app's scheduled jobs (docs/operations.md#scheduled-jobs): their timers start once the app is
 * ready and stop when it closes, a run in progress ending at its next batch before the database
 * closes.
 */
export function scheduleJobs(app: FastifyInstance, { db, instanceId, config, store, firstRunDelayMs }: ScheduledJobsDependencies) {
  const jobs = new JobScheduler({ db, instanceId, log: app.log, firstRunDelayMs });
  if (config.RETENTION_INTERVAL_MS > 0) jobs.every(retentionJob({ db, files: store, log: app.log, intervalMs: config.RETENTION_INTERVAL_MS }));
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', () => jobs.stop());
}
