import { FRAME_MS, frameSamples, WIDEBAND_RATE } from '../../common/calls';
import { MAX_OPUS_PACKET_BYTES, OPUS_SAMPLE_RATE } from '../../common/media';
import { float32ToInt16 } from '../../dsp/pcm';
import { StreamingResampler } from '../../dsp/resampler';

/** The WebCodecs classes the codec builds on: the browser's, or a test's stand-ins. */
export interface WebCodecs {
  AudioEncoder: typeof AudioEncoder;
  AudioDecoder: typeof AudioDecoder;
  AudioData: typeof AudioData;
  EncodedAudioChunk: typeof EncodedAudioChunk;
}

export interface OpusSocketCodecEvents {
  /** One 20 ms Opus packet, for one binary websocket message. */
  onPacket(packet: Uint8Array): void;
  /** 20 ms of the far side decoded: Int16 PCM at 16 kHz, for the playback worklet. */
  onFrame(frame: ArrayBuffer): void;
}

const OPUS_STREAM = { codec: 'opus', sampleRate: OPUS_SAMPLE_RATE, numberOfChannels: 1 } as const;
const FRAME_US = FRAME_MS * 1000;
const FRAME_SAMPLES = frameSamples(WIDEBAND_RATE);

/** Whether this browser can both encode and decode the websocket's Opus (mono, 16 kHz). */
export async function canCarryOpus(codecs: WebCodecs | undefined): Promise<boolean> {
  if (!codecs) return false;
  try {
    const [encoder, decoder] = await Promise.all([codecs.AudioEncoder.isConfigSupported(OPUS_STREAM), codecs.AudioDecoder.isConfigSupported(OPUS_STREAM)]);
    return encoder.supported === true && decoder.supported === true;
  } catch {
    return false;
  }
}

/**
 * The media websocket's Opus (docs/calls.md#media) through WebCodecs: the capture worklet's 20 ms
 * frames (Int16, 16 kHz) become one packet each, and received packets become 20 ms frames at
 * 16 kHz again, whatever rate the browser's decoder gives.
 */
export class OpusSocketCodec {
  private encoder: AudioEncoder;
  private decoder: AudioDecoder;
  private currentBitrate: number;
  private encodedUs = 0;
  private decodedUs = 0;
  private resampler: StreamingResampler | null = null;
  private readonly frame = new Float32Array(FRAME_SAMPLES);
  private filled = 0;
  private closed = false;

  constructor(
    private readonly codecs: WebCodecs,
    bitrate: number,
    private readonly events: OpusSocketCodecEvents,
  ) {
    this.currentBitrate = bitrate;
    this.encoder = this.openEncoder();
    this.decoder = this.openDecoder();
  }

  get bitrate(): number {
    return this.currentBitrate;
  }

  /** Frames encoded from now on use `bitrate` (bits per second). */
  set bitrate(bitrate: number) {
    this.currentBitrate = bitrate;
    if (this.encoder.state === 'configured') this.encoder.configure(encoderConfig(bitrate));
  }

  encode(frame: ArrayBuffer) {
    if (this.encoder.state !== 'configured') return;
    const data = new this.codecs.AudioData({ format: 's16', sampleRate: OPUS_SAMPLE_RATE, numberOfChannels: 1, numberOfFrames: frame.byteLength / 2, timestamp: this.encodedUs, data: frame });
    this.encodedUs += FRAME_US;
    this.encoder.encode(data);
    data.close();
  }

  /** A packet from the socket; one that cannot be Opus (empty, or longer than RFC 6716 allows) is dropped. */
  decode(packet: ArrayBuffer) {
    if (packet.byteLength === 0 || packet.byteLength > MAX_OPUS_PACKET_BYTES || this.decoder.state !== 'configured') return;
    this.decoder.decode(new this.codecs.EncodedAudioChunk({ type: 'key', timestamp: this.decodedUs, data: packet }));
    this.decodedUs += FRAME_US;
  }

  close() {
    this.closed = true;
    if (this.encoder.state !== 'closed') this.encoder.close();
    if (this.decoder.state !== 'closed') this.decoder.close();
  }

  private openEncoder(): AudioEncoder {
    const encoder = new this.codecs.AudioEncoder({
      output: (chunk) => {
        const packet = new Uint8Array(chunk.byteLength);
        chunk.copyTo(packet);
        this.events.onPacket(packet);
      },
      // A codec that fails closes itself; a new one keeps the call's audio going.
      error: (error) => this.reopen('encoder', error, () => (this.encoder = this.openEncoder())),
    });
    encoder.configure(encoderConfig(this.currentBitrate));
    return encoder;
  }

  private openDecoder(): AudioDecoder {
    const decoder = new this.codecs.AudioDecoder({
      output: (data) => this.play(data),
      error: (error) => this.reopen('decoder', error, () => (this.decoder = this.openDecoder())),
    });
    decoder.configure(OPUS_STREAM);
    return decoder;
  }

  private reopen(which: string, error: DOMException, open: () => void) {
    if (this.closed) return;
    console.warn(`The Opus ${which} failed; starting a new one:`, error);
    open();
  }

  private play(data: AudioData) {
    const samples = new Float32Array(data.numberOfFrames);
    data.copyTo(samples, { planeIndex: 0, format: 'f32-planar' });
    const rate = data.sampleRate;
    data.close();
    this.cut(rate === OPUS_SAMPLE_RATE ? samples : this.resample(samples, rate));
  }

  private resample(samples: Float32Array, rate: number): Float32Array {
    if (this.resampler?.inputRate !== rate) this.resampler = new StreamingResampler(rate, OPUS_SAMPLE_RATE);
    const out = new Float32Array(this.resampler.maxOutput(samples.length));
    return out.subarray(0, this.resampler.process(samples, out));
  }

  /** The playback worklet's jitter buffer takes whole 20 ms frames only. */
  private cut(samples: Float32Array) {
    for (const sample of samples) {
      this.frame[this.filled] = sample;
      this.filled += 1;
      if (this.filled === FRAME_SAMPLES) {
        this.events.onFrame(float32ToInt16(this.frame).buffer as ArrayBuffer);
        this.filled = 0;
      }
    }
  }
}

function encoderConfig(bitrate: number): AudioEncoderConfig {
  return { ...OPUS_STREAM, bitrate, opus: { frameDuration: FRAME_US } };
}
