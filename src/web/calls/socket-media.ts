import type { CallSampleRate } from '../../common/calls';
import { OPUS_SAMPLE_RATE, type MediaTransport, type SocketCodec } from '../../common/media';
import type { JitterStats } from '../../dsp/jitter-buffer';
import { openMicrophone } from '../audio/call-audio';
import { followMicrophoneChoice } from '../audio/devices/live-microphone';
import { OpusSocketCodec } from '../audio/opus-socket-codec';
import { SIGNED_OUT_CLOSE_CODE } from '../lib/realtime';
import { bitsPerSecond, peakOf, shareOf, type CallMediaStats } from './call-media-stats';
import type { CallMediaLink } from './call-media-link';
import type { MediaPlatform, WorkletAudio } from './media-platform';
import { SendBufferBitrate } from '../../common/send-buffer-bitrate';

export interface SocketMediaOptions {
  /** Path of the call's media websocket, `/api/v1/calls/:id/media`. */
  mediaPath: string;
  stream: MediaStream;
  /** The call's rate: what PCM is carried at. Opus always runs at 16 kHz. */
  sampleRate: CallSampleRate;
  codec: SocketCodec;
  /** Opus's starting bitrate and its ceiling as it adapts. */
  bitrate: number;
  onDrop(signedOut: boolean): void;
}

type SocketPlatform = Pick<MediaPlatform, 'openSocket' | 'startAudio' | 'webCodecs'>;

/** The running counts at a stats() reading, to report rates until the next. */
interface Reading {
  at: number;
  sent: number;
  received: number;
  played: number;
  concealed: number;
}

/**
 * A call's audio on its media websocket (docs/calls.md#media), the fallback when WebRTC cannot
 * connect: one 20 ms Opus packet per binary message each way, its bitrate stepping down while the
 * send buffer grows; or, where the browser cannot encode Opus, 16-bit PCM frames at the call's rate.
 */
export class SocketMedia implements CallMediaLink {
  readonly transport: MediaTransport;
  private audio: WorkletAudio | null = null;
  private readonly opus: OpusSocketCodec | null = null;
  private readonly adaptation: SendBufferBitrate | null = null;
  private jitter: JitterStats | null = null;
  private sent = 0;
  private received = 0;
  private packetsReceived = 0;
  /** The microphone's peak since the last stats() reading. */
  private micPeak = 0;
  private previous: Reading = { at: Date.now(), sent: 0, received: 0, played: 0, concealed: 0 };
  private stopFollowingMicrophone: () => void = () => undefined;

  private constructor(
    private readonly socket: WebSocket,
    { codec, bitrate }: SocketMediaOptions,
    platform: SocketPlatform,
  ) {
    this.transport = codec === 'opus' ? 'websocket-opus' : 'websocket-pcm';
    if (codec === 'opus') {
      this.opus = new OpusSocketCodec(platform.webCodecs!, bitrate, { onPacket: (packet) => this.send(packet), onFrame: (frame) => this.audio?.play(frame) });
      this.adaptation = new SendBufferBitrate(bitrate);
    }
  }

  /** Needs `platform.webCodecs` for Opus. Stops the microphone when it fails. */
  static async connect(options: SocketMediaOptions, platform: SocketPlatform): Promise<SocketMedia> {
    const socket = platform.openSocket(`${options.mediaPath}?codec=${options.codec}`);
    socket.binaryType = 'arraybuffer';
    let dropped = false;
    socket.onclose = () => {
      dropped = true;
    };
    const media = new SocketMedia(socket, options, platform);
    try {
      media.audio = await platform.startAudio(options.stream, media.opus ? OPUS_SAMPLE_RATE : options.sampleRate, {
        onFrame: (frame) => {
          media.micPeak = Math.max(media.micPeak, peakOf(frame));
          if (media.opus) media.opus.encode(frame);
          else media.send(frame);
        },
        onJitter: (stats) => (media.jitter = stats),
      });
    } catch (error) {
      media.close();
      throw error;
    }
    if (dropped) {
      media.close();
      throw new Error('The call was cut off');
    }
    socket.onmessage = (event: MessageEvent<ArrayBuffer>) => media.receive(event.data);
    socket.onclose = (event: CloseEvent) => options.onDrop(event.code === SIGNED_OUT_CLOSE_CODE);
    media.stopFollowingMicrophone = followMicrophoneChoice(media, openMicrophone);
    return media;
  }

  setMuted(muted: boolean) {
    this.audio?.setMuted(muted);
  }

  /** Another microphone mid-call: the capture worklet is fed from it (docs/calls.md#devices). */
  replaceMicrophone(stream: MediaStream): Promise<void> {
    if (!this.audio?.replaceStream) {
      for (const unused of stream.getTracks()) unused.stop();
      return Promise.reject(new Error('This call cannot change its microphone'));
    }
    this.audio.replaceStream(stream);
    return Promise.resolve();
  }

  async stats(): Promise<CallMediaStats> {
    const now: Reading = { at: Date.now(), sent: this.sent, received: this.received, played: this.jitter?.played ?? 0, concealed: this.jitter?.concealed ?? 0 };
    const { previous } = this;
    this.previous = now;
    const elapsed = now.at - previous.at;
    const concealed = now.concealed - previous.concealed;
    const micLevel = this.micPeak;
    this.micPeak = 0;
    return {
      transport: this.transport,
      codec: this.opus ? 'Opus' : 'PCM',
      // TCP delivers every message or none: nothing is lost, only late.
      packetsReceived: this.packetsReceived,
      packetsLost: 0,
      lossShare: 0,
      micLevel,
      bitrateOut: bitsPerSecond(now.sent - previous.sent, elapsed),
      bitrateIn: bitsPerSecond(now.received - previous.received, elapsed),
      concealedShare: shareOf(concealed, concealed + now.played - previous.played),
    };
  }

  /** Stops the audio and closes the socket; onDrop is not called. */
  close() {
    this.stopFollowingMicrophone();
    this.socket.onclose = null;
    this.socket.onmessage = null;
    this.socket.close();
    this.opus?.close();
    void this.audio?.stop();
  }

  private send(message: ArrayBuffer | Uint8Array) {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(message);
    this.sent += message.byteLength;
    if (!this.opus || !this.adaptation) return;
    const bitrate = this.adaptation.observe(this.socket.bufferedAmount);
    if (bitrate !== this.opus.bitrate) this.opus.bitrate = bitrate;
  }

  private receive(message: ArrayBuffer) {
    this.received += message.byteLength;
    this.packetsReceived += 1;
    if (this.opus) this.opus.decode(message);
    else this.audio?.play(message);
  }
}
