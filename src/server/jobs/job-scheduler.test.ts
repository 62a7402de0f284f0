import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../tests/support/test-database';
import { until } from '../../../tests/support/until';
import type { DatabaseHandle } from '../db/client';
import { JobScheduler, type ScheduledJob } from './job-scheduler';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const quiet = { info: () => {}, warn: () => {} };

describe('JobScheduler', () => {
  it('runs a job shortly after start on one of two instances, and not again before it is due', async () => {
    const ranOn: string[] = [];
    const job = (instance: string): ScheduledJob => ({
      name: 'counted',
      intervalMs: 3_600_000,
      leaseMs: 60_000,
      run: async () => {
        ranOn.push(instance);
        return {};
      },
    });
    const schedulers = ['instance-a', 'instance-b'].map((instanceId) => {
      const scheduler = new JobScheduler({ db: database.db, instanceId, log: quiet, firstRunDelayMs: 10 });
      scheduler.every(job(instanceId));
      return { scheduler, job: job(instanceId) };
    });
    try {
      for (const { scheduler } of schedulers) scheduler.start();
      await until(() => ranOn.length === 1, 20_000);
      // Both timers have fired: the other instance found the job done within the interval.
      for (const { scheduler, job: itsJob } of schedulers) await scheduler.runNow(itsJob);
      expect(ranOn).toHaveLength(1);
    } finally {
      for (const { scheduler } of schedulers) await scheduler.stop();
    }
  }, 60_000);

  it('logs a failed run and keeps going; stop waits for the run in progress, which sees the abort', async () => {
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (_obj: object, msg: string) => warnings.push(msg) };
    const scheduler = new JobScheduler({ db: database.db, instanceId: 'instance-a', log, firstRunDelayMs: 10 });
    const failing: ScheduledJob = {
      name: 'failing',
      intervalMs: 3_600_000,
      leaseMs: 60_000,
      run: async () => {
        throw new Error('the store is away');
      },
    };
    await scheduler.runNow(failing);
    expect(warnings).toEqual(['scheduled job failed: the next run tries again']);

    let sawAbort = false;
    let started = false;
    scheduler.every({
      name: 'long',
      intervalMs: 3_600_000,
      leaseMs: 60_000,
      run: async (signal) => {
        started = true;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        sawAbort = signal.aborted;
        return {};
      },
    });
    scheduler.start();
    await until(() => started, 20_000);
    await scheduler.stop();
    expect(sawAbort).toBe(true);
  });
});
