import type { AdminInstance, AdminLiveCall, AdminPayment, LiveMediaFigures } from '../../common/api/admin';
import type { CallOutcome } from '../../common/calls';
import type { CallService } from '../calls/call-service';
import { countOpenCallsByInstance, listOpenCalls } from '../calls/open-calls';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { listInstances } from '../instances/instance-list';
import { recentPayments } from '../payments/recent-payments';

/** What both sides of a call an administrator ends are told, and what its records keep. */
export const ENDED_BY_ADMIN = 'The call was ended by an administrator';

const RECENT_PAYMENTS = 50;

/**
 * How long the list of calls waits for another instance's live figures: the page refreshes every
 * 5 s, and an instance that does not answer (stopped, or the bus away) leaves its calls without them.
 */
const FIGURES_WAIT_MS = 1_000;

export interface AdminServiceDependencies {
  db: Database;
  calls: CallService;
  /** The instance registry's: silent this long, an instance is stopped. */
  deadAfterMs: number;
  log: { warn(obj: object, msg: string): void };
}

/** The operator's view of every instance (docs/operations.md#admin-view): calls, instances, payments. */
export class AdminService {
  constructor(private readonly deps: AdminServiceDependencies) {}

  /** The calls in progress on every instance, with the live figures their holders give. */
  async liveCalls(): Promise<AdminLiveCall[]> {
    const open = await listOpenCalls(this.deps.db);
    const holders = [...new Set(open.flatMap((call) => (call.instanceId ? [call.instanceId] : [])))];
    const figures = new Map(await Promise.all(holders.map(async (holder) => [holder, await this.figuresOf(holder)] as const)));
    return open.map((call) => ({ ...call, media: (call.instanceId && figures.get(call.instanceId)?.[call.id]) || null }));
  }

  async instances(): Promise<AdminInstance[]> {
    const [listed, counts] = await Promise.all([listInstances(this.deps.db, this.deps.deadAfterMs), countOpenCallsByInstance(this.deps.db)]);
    return listed.map((instance) => ({
      id: instance.id,
      state: instance.state,
      startedAt: instance.startedAt.toISOString(),
      heartbeatAt: instance.heartbeatAt.toISOString(),
      drainingSince: instance.drainingSince?.toISOString() ?? null,
      calls: counts.get(instance.id) ?? 0,
    }));
  }

  recentPayments(): Promise<AdminPayment[]> {
    return recentPayments(this.deps.db, RECENT_PAYMENTS);
  }

  /** Ends a call in progress wherever it is held; 404 for an unknown or ended one. */
  async endCall(callId: string): Promise<{ id: string; outcome: CallOutcome; reason: string }> {
    const outcome = await this.deps.calls.endForOperator(callId, ENDED_BY_ADMIN);
    if (!outcome) throw AppError.notFound('No such call in progress');
    return { id: callId, outcome, reason: ENDED_BY_ADMIN };
  }

  private async figuresOf(holder: string): Promise<Record<string, LiveMediaFigures>> {
    let timer: NodeJS.Timeout | undefined;
    const givenUp = new Promise<Record<string, LiveMediaFigures>>((resolve) => (timer = setTimeout(() => resolve({}), FIGURES_WAIT_MS)));
    try {
      return await Promise.race([this.deps.calls.mediaFigures(holder), givenUp]);
    } catch (error) {
      this.deps.log.warn({ err: error, instanceId: holder }, 'could not read the live figures of another server’s calls');
      return {};
    } finally {
      clearTimeout(timer);
    }
  }
}
