import type { Database } from '../db/client';
import { runExclusively } from './job-lease';

export interface ScheduledJob {
  name: string;
  /** How often the job runs, across all the instances. */
  intervalMs: number;
  /** How long one run may hold the job's lease; a crashed holder's lease runs out after it. */
  leaseMs: number;
  /** One run. `signal` aborts when the app closes: the job stops between batches. */
  run(signal: AbortSignal): Promise<object>;
}

export interface JobSchedulerDependencies {
  db: Database;
  instanceId: string;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** The first run after start: soon, but after the start-up work settles. */
  firstRunDelayMs?: number;
}

const DEFAULT_FIRST_RUN_DELAY_MS = 60_000;

/**
 * Runs scheduled jobs (docs/operations.md#scheduled-jobs) on every instance's timer, each run under
 * the job's lease: whichever instance comes first when the job is due runs it, the others skip.
 * Since every instance keeps a timer, the job goes on when any of them stops.
 */
export class JobScheduler {
  private readonly jobs: ScheduledJob[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private readonly closing = new AbortController();

  constructor(private readonly deps: JobSchedulerDependencies) {}

  every(job: ScheduledJob) {
    this.jobs.push(job);
  }

  start() {
    const firstRunDelayMs = this.deps.firstRunDelayMs ?? DEFAULT_FIRST_RUN_DELAY_MS;
    for (const job of this.jobs) this.schedule(job, Math.min(firstRunDelayMs, job.intervalMs));
  }

  /** Runs `job` now if it is due and no other instance holds it; a failure is logged, never thrown. */
  async runNow(job: ScheduledJob): Promise<void> {
    const { db, instanceId, log } = this.deps;
    const startedAt = Date.now();
    try {
      // Half an interval: each instance's timer fires about once an interval, at its own moment.
      const run = await runExclusively(db, job.name, job.leaseMs, instanceId, () => job.run(this.closing.signal), { notWithinMs: job.intervalMs / 2 });
      if (run.ran) log.info({ job: job.name, ms: Date.now() - startedAt, ...run.result }, 'scheduled job ran');
    } catch (error) {
      log.warn({ err: error, job: job.name }, 'scheduled job failed: the next run tries again');
    }
  }

  /** Stops the timers and waits for a run in progress, which stops at its next batch. */
  async stop() {
    this.closing.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all(this.running);
  }

  private schedule(job: ScheduledJob, delayMs: number) {
    if (this.closing.signal.aborted) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = this.runNow(job).finally(() => {
        this.running.delete(run);
        this.schedule(job, job.intervalMs);
      });
      this.running.add(run);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }
}
