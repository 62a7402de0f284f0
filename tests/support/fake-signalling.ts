import type { ServerMessage } from '../../src/common/realtime';
import type { ClientMessage } from '../../src/common/realtime-client-messages';
import type { Signalling } from '../../src/web/lib/realtime';

/** The tab's signalling socket as the calls code sees it: what it sent, and the server's messages delivered by hand. */
export class FakeSignalling implements Signalling {
  readonly sent: ClientMessage[] = [];
  /** While false, sends fail as on a socket that is not open. */
  open = true;
  /** Calls holding the socket (holdForCall), not released yet. */
  holds = 0;
  private readonly listeners = new Set<(message: ServerMessage) => void>();
  private readonly connectListeners = new Set<(again: boolean) => void>();
  private readonly signedOutListeners = new Set<() => void>();

  /** `delivering` runs each delivery: a test of rendered components passes React's `act`. */
  constructor(private readonly delivering: (deliver: () => void) => void = (deliver) => deliver()) {}

  send(message: ClientMessage) {
    if (!this.open) return false;
    this.sent.push(message);
    return true;
  }

  subscribe(listener: (message: ServerMessage) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onConnect(listener: (again: boolean) => void) {
    this.connectListeners.add(listener);
    return () => this.connectListeners.delete(listener);
  }

  onSignedOut(listener: () => void) {
    this.signedOutListeners.add(listener);
    return () => this.signedOutListeners.delete(listener);
  }

  holdForCall() {
    this.holds += 1;
    let released = false;
    return () => {
      if (!released) this.holds -= 1;
      released = true;
    };
  }

  /** The server closed the socket because the session ended. */
  signOut() {
    for (const listener of this.signedOutListeners) listener();
  }

  deliver(message: ServerMessage) {
    this.delivering(() => {
      for (const listener of this.listeners) listener(message);
    });
  }

  /** The socket opened again after it was away. */
  reconnect() {
    for (const listener of this.connectListeners) listener(true);
  }

  types() {
    return this.sent.map((message) => message.type);
  }
}
