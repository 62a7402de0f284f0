import { and, asc, countDistinct, eq, getTableColumns, ne } from 'drizzle-orm';
import type { AdminLiveCall } from '../../common/api/admin';
import { user } from '../auth/schema';
import type { Database } from '../db/client';
import { isUuid } from '../db/errors';
import { calls } from './schema';

type CallRow = typeof calls.$inferSelect;
type OpenRecord = CallRow & { email: string };

/** A call in progress as the admin view lists it, before the live figures of its holder are added. */
export type OpenCall = Omit<AdminLiveCall, 'media'>;

/**
 * The calls in progress on every instance, oldest first: the records not yet ended, a
 * conversation's two records (caller's and callee's) taken as one call.
 */
export async function listOpenCalls(db: Database, now = new Date()): Promise<OpenCall[]> {
  const rows: OpenRecord[] = await db
    .select({ ...getTableColumns(calls), email: user.email })
    .from(calls)
    .innerJoin(user, eq(user.id, calls.userId))
    .where(ne(calls.state, 'ended'))
    .orderBy(asc(calls.startedAt));
  const conversations = new Map<string, OpenRecord[]>();
  for (const row of rows) conversations.set(row.conversationId, [...(conversations.get(row.conversationId) ?? []), row]);
  return [...conversations.values()].map((records) => asOneCall(records, now));
}

function asOneCall(records: OpenRecord[], now: Date): OpenCall {
  const outbound = records.find((record) => record.direction === 'outbound');
  const inbound = records.find((record) => record.direction === 'inbound');
  // A conversation has at least one record, so one of the two is there.
  const first = (outbound ?? inbound)!;
  return {
    id: first.id,
    direction: first.direction,
    from: first.fromNumber,
    to: first.toNumber,
    callerEmail: outbound?.email ?? null,
    calleeEmail: inbound?.email ?? null,
    state: first.state,
    startedAt: first.startedAt.toISOString(),
    answeredAt: (first.answeredAt ?? inbound?.answeredAt)?.toISOString() ?? null,
    elapsedSec: Math.max(0, Math.floor((now.getTime() - first.startedAt.getTime()) / 1000)),
    mediaTransport: first.mediaTransport ?? inbound?.mediaTransport ?? null,
    instanceId: first.instanceId,
  };
}

/** How many calls in progress each instance holds (a conversation's two records count once). */
export async function countOpenCallsByInstance(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .select({ instanceId: calls.instanceId, count: countDistinct(calls.conversationId) })
    .from(calls)
    .where(ne(calls.state, 'ended'))
    .groupBy(calls.instanceId);
  return new Map(rows.flatMap(({ instanceId, count }) => (instanceId ? [[instanceId, count] as const] : [])));
}

/** The record of a call in progress, whoever's it is (an administrator acts on any call). */
export async function findOpenCall(db: Database, callId: string): Promise<CallRow | undefined> {
  if (!isUuid(callId)) return undefined;
  const [row] = await db
    .select()
    .from(calls)
    .where(and(eq(calls.id, callId), ne(calls.state, 'ended')));
  return row;
}
