import WebSocket from 'ws';
import { FRAME_MS, frameSamples, type CallSampleRate } from '../../src/common/calls';
import { OPUS_BITRATE, OPUS_SAMPLE_RATE, type SocketCodec } from '../../src/common/media';
import { float32ToInt16 } from '../../src/dsp/pcm';
import { OpusFrameDecoder, OpusFrameEncoder } from '../../src/server/media/opus/opus-codec';
import { sine } from './dsp/analysis';

/**
 * A test's end of a call's media websocket: sends a tone at real-time pace and keeps what comes
 * back. With the Opus codec it encodes what it sends and decodes what it receives, at 16 kHz.
 */
export class MediaClient {
  readonly received: Int16Array[] = [];
  /** Bytes of the binary messages received, however they were encoded. */
  bytesReceived = 0;
  /** Opus messages that did not decode. */
  undecodable = 0;
  private sender: NodeJS.Timeout | null = null;
  private readonly encoder: OpusFrameEncoder | null;
  closeCode: number | null = null;
  closeReason = '';
  closed: Promise<number>;

  private constructor(
    readonly socket: WebSocket,
    codec: SocketCodec,
  ) {
    this.encoder = codec === 'opus' ? new OpusFrameEncoder(OPUS_SAMPLE_RATE, OPUS_BITRATE) : null;
    const decoder = codec === 'opus' ? new OpusFrameDecoder(OPUS_SAMPLE_RATE) : null;
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return;
      this.bytesReceived += data.length;
      if (decoder) {
        const frame = decoder.decode(data);
        if (frame) this.received.push(frame.slice());
        else this.undecodable += 1;
        return;
      }
      const frame = new Int16Array(data.length / 2);
      new Uint8Array(frame.buffer).set(data);
      this.received.push(frame);
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code: number, reason: Buffer) => {
        this.closeCode = code;
        this.closeReason = reason.toString();
        this.stopSending();
        resolve(code);
      }),
    );
  }

  /** Connects to the media socket at `url`; with the Opus codec, asking for it in the query. */
  static async connect(url: string, cookie: string, codec: SocketCodec = 'pcm'): Promise<MediaClient> {
    const socket = new WebSocket(codec === 'opus' ? `${url}?codec=opus` : url, { headers: { cookie, origin: 'http://localhost:3000' } });
    const client = new MediaClient(socket, codec);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    });
    return client;
  }

  /** Sends a sine tone in 20 ms frames every 20 ms, silence when `silent()` says so; Opus takes 16 kHz frames only. */
  sendTone(frequency: number, sampleRate: CallSampleRate, silent: () => boolean = () => false) {
    const samples = frameSamples(sampleRate);
    let index = 0;
    this.sender = setInterval(() => {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      const tone = silent() ? new Float32Array(samples) : sine(frequency, sampleRate, samples, 0.5, (2 * Math.PI * frequency * index * samples) / sampleRate);
      index += 1;
      const frame = float32ToInt16(tone);
      this.socket.send(this.encoder ? Buffer.from(this.encoder.encode(frame)) : Buffer.from(frame.buffer));
    }, FRAME_MS);
  }

  stopSending() {
    if (this.sender) clearInterval(this.sender);
    this.sender = null;
  }

  /** The received audio from frame `from` on, as Float32 samples. */
  audio(from = 0): Float32Array {
    const frames = this.received.slice(from);
    const out = new Float32Array(frames.reduce((n, f) => n + f.length, 0));
    let offset = 0;
    for (const frame of frames) {
      for (let i = 0; i < frame.length; i += 1) out[offset + i] = frame[i]! / 32768;
      offset += frame.length;
    }
    return out;
  }

  close() {
    this.stopSending();
    this.socket.close();
  }
}

export function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}
