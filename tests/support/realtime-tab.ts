import WebSocket from 'ws';
import type { ServerMessage } from '../../src/common/realtime';
import { cookieHeader } from './media-client';
import { until } from './until';

/** Whose cookies a tab sends: a TestBrowser, or an HttpBrowser talking to server processes. */
interface SignedIn {
  cookies: Map<string, string>;
}

/** One signed-in tab's signalling socket (/api/v1/realtime), keeping what it is sent. */
export class RealtimeTab {
  readonly messages: ServerMessage[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.messages.push(JSON.parse(data.toString()) as ServerMessage));
  }

  /** `wsBase`: the listening server's ws:// address. */
  static async open(wsBase: string, browser: SignedIn) {
    const socket = new WebSocket(`${wsBase}/api/v1/realtime`, { headers: { cookie: cookieHeader(browser.cookies), origin: 'http://localhost:3000' } });
    await new Promise((resolve) => socket.once('open', resolve));
    return new RealtimeTab(socket);
  }

  /** A tab with the Call Receiver on. */
  static async listening(wsBase: string, browser: SignedIn) {
    const tab = await RealtimeTab.open(wsBase, browser);
    await tab.setListening(true);
    return tab;
  }

  /** Turns the Call Receiver on or off, and waits for the server to confirm it. */
  async setListening(listening: boolean) {
    const from = this.messages.length;
    this.send({ type: listening ? 'receiver.start' : 'receiver.stop' });
    await until(() => this.messages.slice(from).some((m) => m.type === 'receiver.state' && m.listening === listening));
  }

  send(message: object) {
    this.socket.send(JSON.stringify(message));
  }

  /** The first message of this type, waiting for one if none came yet. */
  async next<T extends ServerMessage['type']>(type: T): Promise<Extract<ServerMessage, { type: T }>> {
    await until(() => this.messages.some((m) => m.type === type));
    return this.messages.find((m) => m.type === type) as Extract<ServerMessage, { type: T }>;
  }
}
