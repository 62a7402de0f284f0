import type { WebSocket } from 'ws';
import { frameBytes, WIDEBAND_RATE } from '../../common/calls';
import { isDtmfKey } from '../../dsp/dtmf';
import { StreamMeter } from '../metrics/media-meter';
import { BaseLeg } from './leg';
import { frameFromMessage, sendFrame } from './socket-frames';

/** Close codes of a socket that ended on purpose rather than dropped. */
const NORMAL_CLOSURES = new Set([1000, 1001, 1005]);

/**
 * The telephony provider's media websocket (Vonage's websocket endpoint, docs/providers.md#vonage-voice): a first
 * text message `{"event":"websocket:connected","content-type":"audio/l16;rate=16000",…}`, then one
 * binary message per 20 ms frame of 16 kHz mono PCM (640 bytes) both ways. Text messages that
 * follow may carry a key the far side pressed (`{"event":"websocket:dtmf","digit":"5",…}`), handed
 * to `onDigit`; a frame of another size is dropped and counted, since sending one can make Vonage
 * drop the socket.
 */
export class ProviderLeg extends BaseLeg {
  readonly kind = 'provider' as const;
  readonly sampleRate = WIDEBAND_RATE;
  droppedFrames = 0;
  /** The socket failed or closed abnormally, rather than the far side hanging up. */
  dropped = false;
  private digitListeners: ((digit: string) => void)[] = [];

  constructor(
    private readonly socket: WebSocket,
    private readonly meter = new StreamMeter(),
  ) {
    super();
    const expected = frameBytes(this.sampleRate);
    socket.on('message', (data, isBinary) => {
      if (!isBinary) {
        this.readEvent(String(data));
        return;
      }
      if (!Buffer.isBuffer(data) || data.length !== expected) {
        this.droppedFrames += 1;
        return;
      }
      this.meter.frameIn();
      this.emitFrame(frameFromMessage(data));
    });
    socket.on('close', (code) => {
      if (!NORMAL_CLOSURES.has(code)) this.dropped = true;
      this.close('The phone network closed the call audio');
    });
    socket.on('error', () => {
      this.dropped = true;
      this.close('The connection to the phone network failed');
    });
  }

  send(frame: Int16Array) {
    if (this.isClosed || this.socket.readyState !== this.socket.OPEN) return;
    sendFrame(this.socket, frame);
    this.meter.frameOut();
  }

  /** Called with each key (0-9, * or #) the far side presses. */
  onDigit(listener: (digit: string) => void) {
    this.digitListeners.push(listener);
  }

  private readEvent(text: string) {
    let message: { event?: unknown; 'content-type'?: unknown; digit?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.event === 'websocket:dtmf') {
      if (typeof message.digit === 'string' && isDtmfKey(message.digit)) for (const listener of this.digitListeners) listener(message.digit);
      return;
    }
    if (message.event !== 'websocket:connected' || typeof message['content-type'] !== 'string') return;
    // We asked for 16 kHz; audio at another rate would play at the wrong speed, so refuse it.
    const rate = /rate=(\d+)/.exec(message['content-type'])?.[1];
    if (rate !== undefined && Number(rate) !== this.sampleRate) {
      this.dropped = true;
      this.close(`The phone network sent audio at ${rate} Hz instead of ${this.sampleRate} Hz`);
    }
  }

  protected release(reason: string) {
    this.digitListeners = [];
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(1000, reason.slice(0, 120));
    }
  }
}
