import { Decoder, Encoder } from '@evan/opus';
import { frameSamples, type CallSampleRate } from '../../../common/calls';

/**
 * Opus for the server's legs (docs/decisions/020): 20 ms packets, mono, voice-tuned. @evan/opus runs
 * its native build where it ships one (Linux, macOS and Windows on x64 and arm64) and WebAssembly
 * elsewhere; both are inside the npm package, so nothing is fetched or compiled at install.
 */
const COMPLEXITY = 5;

export class OpusFrameEncoder {
  private readonly encoder: Encoder;
  private currentBitrate: number;

  constructor(
    readonly sampleRate: CallSampleRate,
    bitrate: number,
  ) {
    this.encoder = new Encoder({ channels: 1, sample_rate: sampleRate, application: 'voip' });
    this.encoder.signal = 'voice';
    this.encoder.complexity = COMPLEXITY;
    // In-band FEC lets the far side's decoder rebuild a lost packet from the next one.
    this.encoder.inband_fec = true;
    this.encoder.packet_loss = 5;
    this.currentBitrate = bitrate;
    this.encoder.bitrate = bitrate;
  }

  get bitrate() {
    return this.currentBitrate;
  }

  set bitrate(bitrate: number) {
    if (bitrate === this.currentBitrate) return;
    this.currentBitrate = bitrate;
    this.encoder.bitrate = bitrate;
  }

  /** One 20 ms frame in, one packet out; the packet is a view the next call overwrites. */
  encode(frame: Int16Array): Uint8Array {
    if (frame.length !== frameSamples(this.sampleRate)) throw new RangeError(`an Opus frame holds ${frameSamples(this.sampleRate)} samples, not ${frame.length}`);
    return this.encoder.encode(frame);
  }
}

/**
 * Decodes 20 ms packets to frames at `sampleRate`, whatever rate the far side encoded at. A packet
 * that is not Opus, or not 20 ms long, answers null and leaves the decoder as it was.
 */
export class OpusFrameDecoder {
  private readonly decoder: Decoder;
  private readonly frame: Int16Array;

  constructor(readonly sampleRate: CallSampleRate) {
    this.decoder = new Decoder({ channels: 1, sample_rate: sampleRate });
    this.frame = new Int16Array(frameSamples(sampleRate));
  }

  /** The decoded frame, lent until the next call (docs/calls.md#a-call-and-its-legs), or null. */
  decode(packet: Uint8Array): Int16Array | null {
    let bytes: Uint8Array;
    try {
      bytes = this.decoder.decode(packet);
    } catch {
      return null;
    }
    if (bytes.byteLength !== this.frame.byteLength) return null;
    new Uint8Array(this.frame.buffer).set(bytes);
    return this.frame;
  }
}
