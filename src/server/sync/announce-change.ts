import type { SyncTopic } from '../../common/realtime';
import type { RealtimeHub } from '../realtime/realtime-hub';

/**
 * Tells every open tab of the user, on every instance, that these things of theirs changed, so
 * that each reloads them (docs/architecture.md#sync). The tab that made the change hears it too:
 * the server does not know which tab an HTTP request came from, and a second reload is harmless.
 */
export function announceChange(hub: Pick<RealtimeHub, 'send'>, userId: string, topics: readonly SyncTopic[]) {
  if (topics.length > 0) hub.send(userId, { type: 'sync', topics: [...topics] });
}
