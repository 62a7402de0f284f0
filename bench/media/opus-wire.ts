import { FRAME_MS, frameSamples } from '../../src/common/calls';
import { MAX_OPUS_PACKET_BYTES, OPUS_BITRATE, OPUS_SAMPLE_RATE } from '../../src/common/media';
import { OpusFrameDecoder, OpusFrameEncoder } from '../../src/server/media/opus/opus-codec';
import { speechLikeSignal, toInt16 } from '../../tests/support/dsp/speech-like-signal';
import type { MediaWire } from './media-wire';

const CYCLE_FRAMES = 50;
/** One stream in this many decodes what it receives; decoding every one would load the bench's core more than the codec loads the server's. */
const DECODED_ONE_IN = 3;
/** Decoded audio quieter than this share of what was sent is silence: the voice changer failing closed. */
const SILENT_SHARE = 0.1;

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/**
 * A second of continuous speech (a phrase of the speech-like test signal: the busiest case for the
 * codec's bits and CPU) as 50 Opus packets, encoded once at the call's bitrate, as a browser would,
 * so that the bench spends no CPU encoding on the machine the server runs on. It is encoded twice
 * over and the second pass kept, so that the first packet follows the last as it does on the wire.
 */
const cycle = (() => {
  const samples = frameSamples(OPUS_SAMPLE_RATE);
  const speech = toInt16(speechLikeSignal({ sampleRate: OPUS_SAMPLE_RATE, seconds: (CYCLE_FRAMES * FRAME_MS) / 1000, seed: 2 }));
  const encoder = new OpusFrameEncoder(OPUS_SAMPLE_RATE, OPUS_BITRATE);
  let packets: Buffer[] = [];
  for (let pass = 0; pass < 2; pass += 1) {
    packets = Array.from({ length: CYCLE_FRAMES }, (_, frame) => Buffer.from(encoder.encode(speech.subarray(frame * samples, (frame + 1) * samples))));
  }
  return { packets, rms: rms(speech) };
})();

/** The audio an Opus packet holds in ms, read from its TOC byte (RFC 6716 §3.1); null when it is not mono Opus. */
function packetMs(packet: Buffer): number | null {
  if (packet.length === 0 || packet.length > MAX_OPUS_PACKET_BYTES) return null;
  const toc = packet[0]!;
  if (toc & 0b100) return null;
  const config = toc >> 3;
  const frameMs = config < 12 ? [10, 20, 40, 60][config % 4]! : config < 16 ? [10, 20][config % 2]! : [2.5, 5, 10, 20][config % 4]!;
  const code = toc & 0b11;
  const frames = code === 0 ? 1 : code < 3 ? 2 : (packet[1] ?? 0) & 0x3f;
  return frameMs * frames;
}

/**
 * The `?codec=opus` media socket: one Opus packet per 20 ms each way. A codec that changes every
 * sample cannot carry stamps, so a frame is known by the order of arrival: the server sends one
 * packet out for each packet in, in order, so the n-th packet back is frame n. A frame the server
 * drops shifts every later one by a frame period; the count sent against received says when that
 * happened. Every packet back must be one mono 20 ms Opus packet; one stream in three also decodes
 * what it receives (a packet that does not decode is altered) and measures its loudness.
 */
export class OpusWire implements MediaWire {
  private readonly decoder: OpusFrameDecoder | null;
  private sumOfSquares = 0;
  private samples = 0;

  constructor(stream: number) {
    this.decoder = stream % DECODED_ONE_IN === 0 ? new OpusFrameDecoder(OPUS_SAMPLE_RATE) : null;
  }

  get decodes(): boolean {
    return this.decoder !== null;
  }

  /** What this stream decoded was silence, though it sent speech. */
  get silent(): boolean {
    return this.samples > 0 && Math.sqrt(this.sumOfSquares / this.samples) < SILENT_SHARE * cycle.rms;
  }

  message(sequence: number): Buffer {
    return cycle.packets[sequence % CYCLE_FRAMES]!;
  }

  arrival(data: Buffer, isBinary: boolean, arrivals: number): number | 'altered' {
    if (!isBinary || packetMs(data) !== FRAME_MS) return 'altered';
    if (this.decoder) {
      const frame = this.decoder.decode(data);
      if (!frame) return 'altered';
      for (const sample of frame) this.sumOfSquares += sample * sample;
      this.samples += frame.length;
    }
    return arrivals;
  }
}
