import { asc } from 'drizzle-orm';
import type { Database } from '../db/client';
import { serverInstances } from './schema';

type InstanceState = 'running' | 'draining' | 'stopped';

interface ListedInstance {
  id: string;
  state: InstanceState;
  startedAt: Date;
  heartbeatAt: Date;
  drainingSince: Date | null;
}

/**
 * The instances in the list, oldest first, with their state: stopped once silent for `deadAfterMs`
 * (killed or crashed: the next sweep closes its calls and removes it), draining from SIGTERM on.
 */
export async function listInstances(db: Database, deadAfterMs: number, now = new Date()): Promise<ListedInstance[]> {
  const rows = await db.select().from(serverInstances).orderBy(asc(serverInstances.startedAt));
  return rows.map((row) => ({
    ...row,
    state: now.getTime() - row.heartbeatAt.getTime() > deadAfterMs ? 'stopped' : row.drainingSince ? 'draining' : 'running',
  }));
}
