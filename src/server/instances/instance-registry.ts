import { randomUUID } from 'node:crypto';
import { and, eq, gte, isNull, ne, notInArray, or } from 'drizzle-orm';
import { finaliseCall } from '../calls/call-records';
import { calls } from '../calls/schema';
import type { Database } from '../db/client';
import { serverInstances } from './schema';

type CallRow = typeof calls.$inferSelect;

/** Told after each sweep which instances still run (this one included), and the records it closed. */
export type SweepListener = (running: ReadonlySet<string>, closed: CallRow[]) => void;

export interface InstanceTiming {
  heartbeatMs: number;
  /** An instance silent this long is taken for dead; its open calls are closed. */
  deadAfterMs: number;
  /** How often each instance looks for calls left behind. */
  sweepMs: number;
}

/**
 * Beats every 5 s, dead after 30 s of silence (six beats missed: a stall or a database hiccup of
 * a few seconds is not death), looked for every 10 s: a killed instance's records are closed
 * within 40 s, well inside the minute the issue allows.
 */
export const defaultInstanceTiming: InstanceTiming = { heartbeatMs: 5_000, deadAfterMs: 30_000, sweepMs: 10_000 };

/**
 * This server instance among those sharing the database. It beats while it runs, and closes the
 * call records of instances that stopped beating (killed, crashed), so that no call stays active
 * and no user keeps a "call in progress" they cannot end. A clean stop ends its own calls first
 * (CallService.endAll) and then leaves.
 */
export class InstanceRegistry {
  readonly id = randomUUID();
  private heartbeat: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private sweepListener: SweepListener | null = null;
  /** When this instance began to drain; its row says so from then (`server_instances.draining_since`). */
  private drainingSince: Date | null = null;

  /**
   * `sole`: no other instance can be running (the embedded database is locked to one process), so
   * every instance listed is a previous run, and its calls are closed at once rather than after
   * the heartbeat timeout.
   */
  constructor(
    private readonly db: Database,
    private readonly timing: InstanceTiming,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly sole = false,
  ) {}

  async start() {
    if (this.sole) await this.db.delete(serverInstances);
    await this.db.insert(serverInstances).values({ id: this.id });
    await this.sweep();
    this.heartbeat = setInterval(() => void this.beat(), this.timing.heartbeatMs);
    this.sweeper = setInterval(() => void this.sweep(), this.timing.sweepMs);
    this.heartbeat.unref();
    this.sweeper.unref();
  }

  onSweep(listener: SweepListener) {
    this.sweepListener = listener;
  }

  /**
   * The instance began to drain (SIGTERM, docs/deploy.md#draining): its row says since when, so
   * that the other instances and the operator see it finishing its calls rather than taking new ones.
   */
  async markDraining(at = new Date()) {
    this.drainingSince = at;
    try {
      await this.db.update(serverInstances).set({ drainingSince: at }).where(eq(serverInstances.id, this.id));
    } catch (error) {
      this.log.warn({ err: error }, 'could not record that this server is draining');
    }
  }

  async stop() {
    clearInterval(this.heartbeat);
    clearInterval(this.sweeper);
    await this.db.delete(serverInstances).where(eq(serverInstances.id, this.id));
  }

  /** Closes the open records of instances that are gone; answers how many. */
  async sweep(now = new Date()): Promise<number> {
    try {
      const alive = await this.db
        .select({ id: serverInstances.id })
        .from(serverInstances)
        .where(gte(serverInstances.heartbeatAt, new Date(now.getTime() - this.timing.deadAfterMs)));
      const liveIds = [...new Set([this.id, ...alive.map((instance) => instance.id)])];
      const abandoned = await this.db
        .select({ id: calls.id })
        .from(calls)
        .where(and(ne(calls.state, 'ended'), or(isNull(calls.instanceId), notInArray(calls.instanceId, liveIds))));
      const closed: CallRow[] = [];
      for (const { id } of abandoned) {
        const row = await finaliseCall(this.db, id, 'failed', 'The call was cut off when its server stopped', now);
        if (row) closed.push(row);
      }
      if (abandoned.length > 0) this.log.warn({ closed: abandoned.length }, 'closed call records left open by a server that stopped');
      await this.db.delete(serverInstances).where(notInArray(serverInstances.id, liveIds));
      this.sweepListener?.(new Set(liveIds), closed);
      return abandoned.length;
    } catch (error) {
      this.log.warn({ err: error }, 'could not look for calls left open by stopped servers');
      return 0;
    }
  }

  private async beat() {
    try {
      // Upsert: a database that was briefly away may have lost nothing, or this row.
      await this.db
        .insert(serverInstances)
        .values({ id: this.id, drainingSince: this.drainingSince })
        .onConflictDoUpdate({ target: serverInstances.id, set: { heartbeatAt: new Date(), drainingSince: this.drainingSince } });
    } catch (error) {
      this.log.warn({ err: error }, 'could not record this server’s heartbeat');
    }
  }
}
