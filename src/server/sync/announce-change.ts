import { plans } from '../../common/plans';
import type { SyncTopic } from '../../common/realtime';
import type { Database } from '../db/client';
import { currentPlan } from '../plans/service';
import type { RealtimeHub } from '../realtime/realtime-hub';

/** What telling a user's tabs of a change needs: their plan decides (docs/decisions/037-sync-on-platinum.md). */
export interface SyncChannel {
  hub: Pick<RealtimeHub, 'send'>;
  db: Pick<Database, 'select'>;
  log: { warn(obj: object, msg: string): void };
}

/**
 * Tells every open tab of the user, on every instance, that these things of theirs changed, so
 * that each reloads them (docs/architecture.md#sync), when their plan includes multi-device sync;
 * the tabs of other plans catch up when the user comes back to them. The tab that made the change
 * hears it too: the server does not know which tab an HTTP request came from, and a second reload
 * is harmless. Never fails its caller: the change is made whether or not its tabs hear of it, and a
 * plan that cannot be read includes nothing; those tabs catch up when focused, as on any other plan.
 */
export async function announceChange({ hub, db, log }: SyncChannel, userId: string, topics: readonly SyncTopic[]): Promise<void> {
  if (topics.length === 0) return;
  const syncs = await currentPlan(db, userId).then(
    (plan) => plans[plan.tier].multiDeviceSync,
    (error: unknown) => {
      log.warn({ err: error, userId, topics }, 'could not read the plan, so the other tabs were not told of a change');
      return false;
    },
  );
  if (syncs) hub.send(userId, { type: 'sync', topics: [...topics] });
}
