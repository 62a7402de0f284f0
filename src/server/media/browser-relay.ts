import type { WebSocket } from 'ws';
import { frameBytes, type CallSampleRate } from '../../common/calls';
import type { MediaExchange } from './media-exchange';

/**
 * A browser's media socket held by this instance for a call that another instance carries: passes
 * its frames through the media exchange to that instance and the call's frames back, untouched.
 * The other instance sees it as a RemoteBrowserLeg.
 */
export class BrowserRelay {
  private readonly stopListening: () => void;
  private closeListener: ((reason: string) => void) | null = null;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly exchange: MediaExchange,
    private readonly holder: string,
    private readonly relayId: string,
  ) {
    this.stopListening = exchange.listen(relayId, (frame) => {
      // The exchange's buffer may be reused once this returns; the socket may still be queueing.
      if (socket.readyState === socket.OPEN) socket.send(Buffer.from(frame), { binary: true });
    });
    socket.on('close', () => this.finish('The browser disconnected'));
    socket.on('error', () => this.finish('The browser connection failed'));
  }

  /** The call took the relay: from now on the browser's frames of the right size go to it. */
  start(sampleRate: CallSampleRate) {
    const expected = frameBytes(sampleRate);
    const sendToHolder = this.exchange.sender(this.holder, this.relayId);
    this.socket.on('message', (data, isBinary) => {
      if (this.closed || !isBinary || !Buffer.isBuffer(data) || data.length !== expected) return;
      sendToHolder(data);
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
    this.stopListening();
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, reason.slice(0, 120));
  }

  private finish(reason: string) {
    if (this.closed) return;
    this.closed = true;
    this.stopListening();
    this.closeListener?.(reason);
  }
}
