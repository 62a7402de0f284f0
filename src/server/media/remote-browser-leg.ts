import { frameBytes, type CallSampleRate } from '../../common/calls';
import type { MediaTransport } from '../../common/media';
import { StreamMeter } from '../metrics/media-meter';
import { BaseLeg } from './leg';
import type { MediaExchange } from './media-exchange';
import { frameFromMessage } from './socket-frames';

/**
 * A browser whose media socket another instance holds (BrowserRelay), as a leg of a call on this
 * one: its frames come and go through the media exchange, unencoded, under the relay's id. Its
 * transport is the browser socket's, whose Opus, if any, the relay decodes and encodes.
 */
export class RemoteBrowserLeg extends BaseLeg {
  readonly kind = 'browser' as const;
  /** Frames of the wrong size, dropped rather than played (docs/calls.md#media). */
  droppedFrames = 0;
  private readonly sendToRelay: (frame: Uint8Array) => void;
  private readonly stopListening: () => void;

  constructor(
    exchange: MediaExchange,
    relayInstance: string,
    relayId: string,
    readonly sampleRate: CallSampleRate,
    readonly transport: MediaTransport,
    private readonly meter = new StreamMeter(),
  ) {
    super();
    const expected = frameBytes(sampleRate);
    this.sendToRelay = exchange.sender(relayInstance, relayId);
    this.stopListening = exchange.listen(relayId, (payload) => {
      if (this.isClosed) return;
      if (payload.length !== expected) {
        this.droppedFrames += 1;
        return;
      }
      this.meter.frameIn();
      this.emitFrame(frameFromMessage(payload));
    });
  }

  send(frame: Int16Array) {
    if (this.isClosed) return;
    this.sendToRelay(new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength));
    this.meter.frameOut();
  }

  protected release() {
    this.stopListening();
  }
}
