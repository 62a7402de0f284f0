import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import type { SessionUser } from '../../src/common/api/session';
import type { ServerMessage } from '../../src/common/realtime';
import type { RealtimeHub } from '../../src/server/realtime/realtime-hub';
import { until } from './until';

/** Just enough of a tab's ws socket for the realtime hub: what it is sent, and the messages the tab says. */
export class FakeRealtimeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  readonly sent: ServerMessage[] = [];

  send(data: string) {
    this.sent.push(JSON.parse(data) as ServerMessage);
  }

  close() {
    this.readyState = 3;
    this.emit('close');
  }

  say(message: object) {
    this.emit('message', Buffer.from(JSON.stringify(message)), false);
  }

  ping() {}

  terminate() {}

  of<T extends ServerMessage['type']>(type: T) {
    return this.sent.filter((message): message is Extract<ServerMessage, { type: T }> => message.type === type);
  }

  /** Turns the tab's Call Receiver on, and waits for the hub to confirm it. */
  async startListening() {
    this.say({ type: 'receiver.start' });
    await until(() => this.of('receiver.state').length > 0);
  }
}

/** The socket of a tab of `userId` that has joined `hub`. */
export function joinTab(hub: RealtimeHub, userId: string) {
  const socket = new FakeRealtimeSocket();
  hub.join({ id: userId } as SessionUser, socket as unknown as WebSocket);
  return socket;
}
