import WebSocket from 'ws';
import { FRAME_MS, frameSamples, type CallSampleRate } from '../../src/common/calls';
import { float32ToInt16 } from '../../src/dsp/pcm';
import { sine } from './dsp/analysis';

/** A test's end of a call's media websocket: sends a tone at real-time pace and keeps what comes back. */
export class MediaClient {
  readonly received: Int16Array[] = [];
  private sender: NodeJS.Timeout | null = null;
  closeCode: number | null = null;
  closed: Promise<number>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return;
      const frame = new Int16Array(data.length / 2);
      new Uint8Array(frame.buffer).set(data);
      this.received.push(frame);
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code: number) => {
        this.closeCode = code;
        this.stopSending();
        resolve(code);
      }),
    );
  }

  static async connect(url: string, cookie: string): Promise<MediaClient> {
    const socket = new WebSocket(url, { headers: { cookie, origin: 'http://localhost:3000' } });
    const client = new MediaClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    });
    return client;
  }

  /** Sends a sine tone in 20 ms frames every 20 ms, silence when `silent()` says so. */
  sendTone(frequency: number, sampleRate: CallSampleRate, silent: () => boolean = () => false) {
    const samples = frameSamples(sampleRate);
    let index = 0;
    this.sender = setInterval(() => {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      const tone = silent() ? new Float32Array(samples) : sine(frequency, sampleRate, samples, 0.5, (2 * Math.PI * frequency * index * samples) / sampleRate);
      index += 1;
      this.socket.send(Buffer.from(float32ToInt16(tone).buffer));
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
