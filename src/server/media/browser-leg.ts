import type { WebSocket } from 'ws';
import type { CallSampleRate } from '../../common/calls';
import type { MediaTransport, SocketCodec } from '../../common/media';
import { StreamMeter } from '../metrics/media-meter';
import { BaseLeg } from './leg';
import { socketFraming, type SocketFraming } from './socket-codec';

/**
 * A browser tab's media websocket: one binary message per 20 ms, both ways, an Opus packet or a
 * PCM frame as the socket's codec says (docs/calls.md#media).
 */
export class BrowserLeg extends BaseLeg {
  readonly kind = 'browser' as const;
  readonly sampleRate: CallSampleRate;
  readonly transport: MediaTransport;
  private readonly framing: SocketFraming;
  private readonly sendMessage = (message: Buffer) => this.socket.send(message, { binary: true });

  constructor(
    private readonly socket: WebSocket,
    codec: SocketCodec,
    callRate: CallSampleRate,
    private readonly meter = new StreamMeter(),
  ) {
    super();
    this.framing = socketFraming(codec, callRate, socket);
    this.sampleRate = this.framing.sampleRate;
    this.transport = this.framing.transport;
    socket.on('message', (data, isBinary) => {
      const frame = this.framing.read(data, isBinary);
      if (!frame) return;
      this.meter.frameIn();
      this.emitFrame(frame);
    });
    socket.on('close', () => this.close('The browser disconnected'));
    socket.on('error', () => this.close('The browser connection failed'));
  }

  /** Messages dropped rather than played: text, frames of the wrong size, or not Opus. */
  get droppedFrames() {
    return this.framing.dropped;
  }

  send(frame: Int16Array) {
    if (this.isClosed || this.socket.readyState !== this.socket.OPEN) return;
    this.framing.write(frame, this.sendMessage);
    this.meter.frameOut();
  }

  protected release(reason: string) {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(1000, reason.slice(0, 120));
    }
  }
}
