import type { WebSocket } from 'ws';
import { frameBytes, type CallSampleRate } from '../../common/calls';
import type { SocketCodec } from '../../common/media';
import { StreamMeter } from '../metrics/media-meter';
import type { MediaExchange } from './media-exchange';
import { socketFraming } from './socket-codec';
import { frameFromMessage } from './socket-frames';

/**
 * A browser's media socket held by this instance for a call that another instance carries: passes
 * its audio through the media exchange to that instance and the call's audio back. Whatever the
 * socket's codec, the exchange carries PCM frames at the call's rate: the Opus of a socket is
 * decoded and encoded here, and the other instance sees a RemoteBrowserLeg like any other.
 */
export class BrowserRelay {
  private stopListening: (() => void) | null = null;
  private closeListener: ((reason: string) => void) | null = null;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly exchange: MediaExchange,
    private readonly holder: string,
    private readonly relayId: string,
    private readonly codec: SocketCodec,
    /** The browser socket's frames, counted under its transport. */
    private readonly meter = new StreamMeter(),
  ) {
    socket.on('close', () => this.finish('The browser disconnected'));
    socket.on('error', () => this.finish('The browser connection failed'));
  }

  /** The call took the relay, its frames at `sampleRate`: from now on audio flows both ways. */
  start(sampleRate: CallSampleRate) {
    if (this.closed) return;
    const framing = socketFraming(this.codec, sampleRate, this.socket, sampleRate);
    const expected = frameBytes(sampleRate);
    const sendMessage = (message: Buffer) => this.socket.send(message, { binary: true });
    this.stopListening = this.exchange.listen(this.relayId, (payload) => {
      if (payload.length !== expected || this.socket.readyState !== this.socket.OPEN) return;
      // The exchange's buffer may be reused once this returns, and may start at an odd offset.
      framing.write(frameFromMessage(payload), sendMessage);
      this.meter.frameOut();
    });
    const sendToHolder = this.exchange.sender(this.holder, this.relayId);
    this.socket.on('message', (data, isBinary) => {
      if (this.closed) return;
      const frame = framing.read(data, isBinary);
      if (!frame) return;
      this.meter.frameIn();
      sendToHolder(new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength));
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
    this.stopListening?.();
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(code, reason.slice(0, 120));
  }

  private finish(reason: string) {
    if (this.closed) return;
    this.closed = true;
    this.stopListening?.();
    this.closeListener?.(reason);
  }
}
