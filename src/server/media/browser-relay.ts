import type { WebSocket } from 'ws';
import { frameBytes, type CallSampleRate } from '../../common/calls';
import type { Bus, Unsubscribe } from '../bus/bus';
import { relayChannels } from './remote-browser-leg';

/**
 * A browser's media socket held by this instance for a call that another instance carries: passes
 * its frames to the bus and the call's frames back, untouched. The other instance sees it as a
 * RemoteBrowserLeg.
 */
export class BrowserRelay {
  private readonly channels: ReturnType<typeof relayChannels>;
  private readonly subscription: Promise<Unsubscribe>;
  private closeListener: ((reason: string) => void) | null = null;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly bus: Bus,
    relayId: string,
  ) {
    this.channels = relayChannels(relayId);
    this.subscription = bus.subscribe(this.channels.toBrowser, (payload) => {
      // The bus's buffer may be reused once this returns; the socket may still be queueing.
      if (socket.readyState === socket.OPEN) socket.send(Buffer.from(payload), { binary: true });
    });
    socket.on('close', () => this.finish('The browser disconnected'));
    socket.on('error', () => this.finish('The browser connection failed'));
  }

  /** Resolves once the call's frames reach the browser. */
  async ready() {
    await this.subscription;
  }

  /** The call took the relay: from now on the browser's frames of the right size go to it. */
  start(sampleRate: CallSampleRate) {
    const expected = frameBytes(sampleRate);
    this.socket.on('message', (data, isBinary) => {
      if (this.closed || !isBinary || !Buffer.isBuffer(data) || data.length !== expected) return;
      this.bus.publish(this.channels.fromBrowser, data).catch(() => {});
    });
  }

  /** Called once, when the browser goes away (not when close() is called). */
  onClose(listener: (reason: string) => void) {
    this.closeListener = listener;
  }

  /** The call ended or refused the socket: closes it with `code`. */
  close(reason: string, code = 1000) {
    if (this.closed) return;
    this.closed = true;
    this.release();
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, reason.slice(0, 120));
  }

  private finish(reason: string) {
    if (this.closed) return;
    this.closed = true;
    this.release();
    this.closeListener?.(reason);
  }

  private release() {
    this.subscription.then((unsubscribe) => unsubscribe()).catch(() => {});
  }
}
