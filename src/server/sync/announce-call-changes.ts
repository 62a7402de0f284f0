import type { LiveCall } from '../calls/live-calls';
import { announceChange, type SyncChannel } from './announce-change';

/**
 * A call that ended is in the history of its caller and of the Voxline user it rang, both records
 * final by now (the callee's is ended by an earlier hook): every tab of each reloads its history.
 */
export async function announceCallEnded(channel: SyncChannel, call: Pick<LiveCall, 'userId' | 'inbound'>) {
  const users = new Set([call.userId, call.inbound?.userId].filter((userId): userId is string => Boolean(userId)));
  await Promise.all([...users].map((userId) => announceChange(channel, userId, ['history'])));
}
