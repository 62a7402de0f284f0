import { frameBytes, NARROWBAND_RATE, type CallSampleRate } from '../../common/calls';
import { MAX_OPUS_PACKET_BYTES, OPUS_BITRATE, OPUS_LOW_DATA_BITRATE, OPUS_SAMPLE_RATE, type MediaTransport, type SocketCodec } from '../../common/media';
import { FrameConverter } from './frame-converter';
import { OpusFrameDecoder, OpusFrameEncoder } from './opus/opus-codec';
import { SendBufferBitrate } from '../../common/send-buffer-bitrate';
import { frameFromMessage } from './socket-frames';

/** How a browser's media websocket maps its binary messages to 20 ms frames and back (docs/calls.md#media). */
export interface SocketFraming {
  readonly transport: MediaTransport;
  /** The rate of the frames read and written. */
  readonly sampleRate: CallSampleRate;
  /** Messages dropped rather than played: text, PCM of the wrong size, or not Opus. */
  readonly dropped: number;
  /** The frame one message carries, lent until the next read; null when it is dropped (and counted). */
  read(data: unknown, isBinary: boolean): Int16Array | null;
  /** Hands `send` the messages that carry `frame`, each a copy the socket may keep. */
  write(frame: Int16Array, send: (message: Buffer) => void): void;
}

export function socketTransport(codec: SocketCodec): MediaTransport {
  return codec === 'opus' ? 'websocket-opus' : 'websocket-pcm';
}

/**
 * The framing of a media socket that carries `codec` for a call at `callRate`, with frames at
 * `frameRate`: by default the browser leg's own, 16 kHz for Opus whatever the call's rate (Low
 * Data Mode caps the bitrate instead), the call's rate for PCM. `socket` is read for adaptation.
 */
/** What the adaptation reads of a ws socket: the bytes it has been given and not yet sent. */
interface SendBuffer {
  readonly bufferedAmount: number;
}

export function socketFraming(codec: SocketCodec, callRate: CallSampleRate, socket: SendBuffer, frameRate: CallSampleRate = codec === 'opus' ? OPUS_SAMPLE_RATE : callRate): SocketFraming {
  if (codec === 'pcm') return new PcmFraming(frameRate);
  return new OpusFraming(frameRate, callRate === NARROWBAND_RATE ? OPUS_LOW_DATA_BITRATE : OPUS_BITRATE, socket);
}

/** Raw 16-bit PCM, one frame a message at the frames' rate: 640 bytes at 16 kHz, 320 at 8 kHz. */
class PcmFraming implements SocketFraming {
  readonly transport = 'websocket-pcm';
  dropped = 0;
  private readonly expected: number;

  constructor(readonly sampleRate: CallSampleRate) {
    this.expected = frameBytes(sampleRate);
  }

  read(data: unknown, isBinary: boolean): Int16Array | null {
    if (!isBinary || !Buffer.isBuffer(data) || data.length !== this.expected) {
      this.dropped += 1;
      return null;
    }
    return frameFromMessage(data);
  }

  write(frame: Int16Array, send: (message: Buffer) => void) {
    send(Buffer.from(new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength)));
  }
}

/**
 * One Opus packet a message, 20 ms, mono, encoded at 16 kHz. Frames at 8 kHz (a relayed Low Data
 * Mode call, whose frames cross the bus at the call's rate) are raised to 16 kHz to be encoded;
 * packets decode straight to the frames' rate.
 */
class OpusFraming implements SocketFraming {
  readonly transport = 'websocket-opus';
  dropped = 0;
  private readonly decoder: OpusFrameDecoder;
  private readonly encoder: OpusFrameEncoder;
  private readonly toEncoderRate: FrameConverter | null;
  private readonly bitrate: SendBufferBitrate;

  constructor(
    readonly sampleRate: CallSampleRate,
    cap: number,
    private readonly socket: SendBuffer,
  ) {
    this.decoder = new OpusFrameDecoder(sampleRate);
    this.encoder = new OpusFrameEncoder(OPUS_SAMPLE_RATE, cap);
    this.bitrate = new SendBufferBitrate(cap);
    this.toEncoderRate = sampleRate === OPUS_SAMPLE_RATE ? null : new FrameConverter(sampleRate, OPUS_SAMPLE_RATE);
  }

  read(data: unknown, isBinary: boolean): Int16Array | null {
    const frame = isBinary && Buffer.isBuffer(data) && data.length <= MAX_OPUS_PACKET_BYTES ? this.decoder.decode(data) : null;
    if (!frame) this.dropped += 1;
    return frame;
  }

  write(frame: Int16Array, send: (message: Buffer) => void) {
    if (!this.toEncoderRate) {
      send(this.packet(frame));
      return;
    }
    this.toEncoderRate.convert(frame, (converted) => send(this.packet(converted)));
  }

  private packet(frame: Int16Array): Buffer {
    this.encoder.bitrate = this.bitrate.observe(this.socket.bufferedAmount);
    return Buffer.from(this.encoder.encode(frame));
  }
}
