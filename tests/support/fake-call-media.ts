import { vi } from 'vitest';
import type { MediaConfig } from '../../src/common/media';
import type { CallAudioEvents } from '../../src/web/audio/call-audio';
import type { WebCodecs } from '../../src/web/audio/opus-socket-codec';
import type { MediaPlatform } from '../../src/web/calls/media-platform';

/** The start of Chromium's audio-only offer: Opus (111) among others, before the test's parameters. */
export const CHROMIUM_OFFER = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126',
  'c=IN IP4 0.0.0.0',
  'a=mid:0',
  'a=sendrecv',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=fmtp:63 111/111',
  'a=rtpmap:9 G722/8000',
  'a=rtpmap:0 PCMU/8000',
  '',
].join('\r\n');

/** What Chromium says it can receive, in its own order. */
const CHROMIUM_AUDIO_CODECS: RTCRtpCodec[] = [
  { mimeType: 'audio/red', clockRate: 48_000, channels: 2 },
  { mimeType: 'audio/opus', clockRate: 48_000, channels: 2, sdpFmtpLine: 'minptime=10;useinbandfec=1' },
  { mimeType: 'audio/G722', clockRate: 8_000 },
  { mimeType: 'audio/PCMU', clockRate: 8_000 },
];

export function fakeMicrophone() {
  const track = { kind: 'audio', enabled: true, stop: vi.fn() };
  const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
  return { stream, track };
}

/** An RTCPeerConnection whose gathering and connection the test moves on by hand. */
class FakePeerConnection {
  connectionState: RTCPeerConnectionState = 'new';
  iceGatheringState: RTCIceGathererState = 'new';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  onconnectionstatechange: (() => void) | null = null;
  onicegatheringstatechange: (() => void) | null = null;
  closed = false;
  readonly receivedTrack = { kind: 'audio', id: 'far-side' };
  readonly transceivers: { track: unknown; init: RTCRtpTransceiverInit; codecs: RTCRtpCodec[] | null }[] = [];
  report = new Map<string, RTCStats>();

  constructor(readonly config: RTCConfiguration) {}

  addTransceiver(track: unknown, init: RTCRtpTransceiverInit) {
    const transceiver = { track, init, codecs: null as RTCRtpCodec[] | null };
    this.transceivers.push(transceiver);
    return {
      receiver: { track: this.receivedTrack },
      setCodecPreferences: (codecs: RTCRtpCodec[]) => (transceiver.codecs = codecs),
    };
  }

  async createOffer() {
    return { type: 'offer' as const, sdp: CHROMIUM_OFFER };
  }

  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
  }

  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
  }

  async getStats() {
    return this.report;
  }

  close() {
    this.closed = true;
    this.connectionState = 'closed';
  }

  gathered() {
    this.iceGatheringState = 'complete';
    this.onicegatheringstatechange?.();
  }

  becomes(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

/** A call's media websocket: what the page sent, and the server's messages delivered by hand. */
class FakeMediaSocket {
  binaryType = 'blob';
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  readonly sent: Uint8Array[] = [];
  onclose: ((event: { code: number }) => void) | null = null;
  onmessage: ((event: { data: ArrayBuffer }) => void) | null = null;
  closed = false;

  constructor(readonly path: string) {}

  send(data: ArrayBuffer | Uint8Array) {
    this.sent.push(new Uint8Array(data instanceof Uint8Array ? data : data.slice(0)));
  }

  close() {
    this.closed = true;
    this.readyState = WebSocket.CLOSED;
  }

  deliver(data: ArrayBuffer) {
    this.onmessage?.({ data });
  }

  closedByServer(code: number) {
    this.readyState = WebSocket.CLOSED;
    this.onclose?.({ code });
  }
}

interface FakeAudioDataInit {
  format: string;
  sampleRate: number;
  numberOfChannels: number;
  numberOfFrames: number;
  timestamp: number;
  data: ArrayBuffer | Float32Array;
}

class FakeAudioData {
  readonly format: string;
  readonly sampleRate: number;
  readonly numberOfFrames: number;
  readonly timestamp: number;
  readonly samples: Int16Array | Float32Array;
  closed = false;

  constructor(init: FakeAudioDataInit) {
    ({ format: this.format, sampleRate: this.sampleRate, numberOfFrames: this.numberOfFrames, timestamp: this.timestamp } = init);
    this.samples = init.data instanceof Float32Array ? init.data.slice() : new Int16Array(init.data.slice(0));
  }

  copyTo(destination: Float32Array, options: { planeIndex: number; format?: string }) {
    if (options.format !== 'f32-planar' || options.planeIndex !== 0) throw new Error('the fake copies plane 0 as f32-planar only');
    destination.set(this.samples);
  }

  close() {
    this.closed = true;
  }
}

class FakeEncodedAudioChunk {
  readonly timestamp: number;
  readonly bytes: Uint8Array;

  constructor(init: { type: string; timestamp: number; data: ArrayBuffer | Uint8Array }) {
    this.timestamp = init.timestamp;
    this.bytes = new Uint8Array(init.data instanceof Uint8Array ? init.data : init.data.slice(0));
  }

  get byteLength() {
    return this.bytes.byteLength;
  }

  copyTo(destination: Uint8Array) {
    destination.set(this.bytes);
  }
}

/**
 * WebCodecs' Opus without the codec: an encoded frame is a packet of the bitrate's size (its first
 * byte counting the frames), and a packet decodes to 20 ms at `decodedRate` whose every sample is
 * its first byte / 100.
 */
export function fakeWebCodecs({ supported = true, decodedRate = 16_000 } = {}) {
  const encoders: FakeAudioEncoder[] = [];
  const decoders: FakeAudioDecoder[] = [];

  class FakeAudioEncoder {
    static isConfigSupported = vi.fn(async (config: AudioEncoderConfig) => ({ supported, config }));
    state: CodecState = 'unconfigured';
    readonly configs: AudioEncoderConfig[] = [];
    readonly frames: FakeAudioData[] = [];

    constructor(readonly init: AudioEncoderInit) {
      encoders.push(this);
    }

    configure(config: AudioEncoderConfig) {
      this.state = 'configured';
      this.configs.push(config);
    }

    encode(data: FakeAudioData) {
      this.frames.push(data);
      const packet = new Uint8Array(Math.round(this.configs.at(-1)!.bitrate! / 8 / 50));
      packet[0] = this.frames.length;
      this.init.output(new FakeEncodedAudioChunk({ type: 'key', timestamp: data.timestamp, data: packet }) as unknown as EncodedAudioChunk);
    }

    close() {
      this.state = 'closed';
    }

    fail() {
      this.state = 'closed';
      this.init.error(new DOMException('The encoder broke', 'EncodingError'));
    }
  }

  class FakeAudioDecoder {
    static isConfigSupported = vi.fn(async (config: AudioDecoderConfig) => ({ supported, config }));
    state: CodecState = 'unconfigured';
    readonly chunks: FakeEncodedAudioChunk[] = [];

    constructor(readonly init: AudioDecoderInit) {
      decoders.push(this);
    }

    configure() {
      this.state = 'configured';
    }

    decode(chunk: FakeEncodedAudioChunk) {
      this.chunks.push(chunk);
      const numberOfFrames = decodedRate / 50;
      const data = new Float32Array(numberOfFrames).fill(chunk.bytes[0]! / 100);
      this.init.output(new FakeAudioData({ format: 'f32-planar', sampleRate: decodedRate, numberOfChannels: 1, numberOfFrames, timestamp: chunk.timestamp, data }) as unknown as AudioData);
    }

    close() {
      this.state = 'closed';
    }

    fail() {
      this.state = 'closed';
      this.init.error(new DOMException('The packet was not Opus', 'EncodingError'));
    }
  }

  const codecs = { AudioEncoder: FakeAudioEncoder, AudioDecoder: FakeAudioDecoder, AudioData: FakeAudioData, EncodedAudioChunk: FakeEncodedAudioChunk } as unknown as WebCodecs;
  return { codecs, encoders, decoders };
}

/**
 * The browser as a call's audio sees it (media-platform.ts), every part a stand-in: the server's
 * config, WebRTC (`webrtc: false`, none), WebCodecs (`webCodecs: false`, none), the media
 * websocket and the audio worklets.
 */
export function fakeMediaPlatform({ config = { webrtc: true, iceServers: [] } as MediaConfig | Error, webrtc = true, webCodecs = true } = {}) {
  const peers: FakePeerConnection[] = [];
  const sockets: FakeMediaSocket[] = [];
  const codecs = fakeWebCodecs();
  const audio = { play: vi.fn(), setMuted: vi.fn(), stop: vi.fn(async () => {}) };
  const remote = { stop: vi.fn(async () => {}) };
  let events: CallAudioEvents | null = null;
  const platform = {
    mediaConfig: vi.fn(async () => {
      if (config instanceof Error) throw config;
      return config;
    }),
    createPeer: webrtc
      ? (peerConfig: RTCConfiguration) => {
          const peer = new FakePeerConnection(peerConfig);
          peers.push(peer);
          return peer as unknown as RTCPeerConnection;
        }
      : undefined,
    audioCodecs: () => CHROMIUM_AUDIO_CODECS,
    playRemote: vi.fn(async (_track: MediaStreamTrack) => remote),
    webCodecs: webCodecs ? codecs.codecs : undefined,
    openSocket: (path: string) => {
      const socket = new FakeMediaSocket(path);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    startAudio: vi.fn(async (_stream: MediaStream, _wireRate: number, given: CallAudioEvents) => {
      events = given;
      return audio;
    }),
  } satisfies MediaPlatform;
  return {
    platform,
    peers,
    sockets,
    codecs,
    audio,
    remote,
    /** The capture worklet's side: what CallAudio was told to do with each microphone frame. */
    events: () => events!,
  };
}
