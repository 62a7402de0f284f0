import type { LiveCall } from '../calls/live-calls';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { announceChange } from './announce-change';

/**
 * A call that ended is in the history of its caller and of the Voxline user it rang, both records
 * final by now (the callee's is ended by an earlier hook): every tab of each reloads its history.
 */
export function announceCallEnded(hub: Pick<RealtimeHub, 'send'>, call: Pick<LiveCall, 'userId' | 'inbound'>) {
  if (call.userId) announceChange(hub, call.userId, ['history']);
  if (call.inbound && call.inbound.userId !== call.userId) announceChange(hub, call.inbound.userId, ['history']);
}
