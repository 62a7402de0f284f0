import { Encoder } from '@evan/opus';
import { MAX_SEGMENTS, OGG_FLAG_BEGINNING, OGG_FLAG_END, oggPage, opusHead, opusTags, segmentsOf } from './ogg-page';

const OPUS_GET_LOOKAHEAD = 4027;
/** Ogg Opus counts time in 48 kHz samples whatever rate was encoded. */
const GRANULE_RATE = 48_000;
/** A page a second: a crash loses at most the second being written. */
const PACKETS_PER_PAGE = 50;
const FRAME_MS = 20;
/**
 * Every recorded call encodes 50 stereo frames a second on the instance's event loop, beside its
 * live audio: libopus's default complexity (10) took 230 µs a frame on this project's machine, which
 * at 200 recorded calls is more than a core (bench/load --record); 1 takes 70 µs, and speech at
 * 24 kbit/s stays clear (the analysis it skips is what music needs).
 */
const COMPLEXITY = 1;
/** The most one Opus packet can be (RFC 6716 §3.4). */
const MAX_PACKET_BYTES = 1275;

/**
 * Bits per second for a stereo 16 kHz call recording: about 180 kB a minute, within
 * RECORDING_MAX_BYTES_PER_MINUTE (src/common/api/recordings.ts), and clear speech on both sides.
 */
export const RECORDING_BITRATE = 24_000;

export interface OggOpusWriterOptions {
  channels: 1 | 2;
  sampleRate: 16_000 | 8_000;
  /** Bits per second for all channels together. */
  bitrate: number;
  /** Takes each page as it is made (the headers at once); the Buffer is the sink's to keep. */
  sink: (bytes: Buffer) => void;
}

/**
 * A streaming Ogg Opus file (RFC 7845): 20 ms frames in, a page out every second, so that the file
 * on disk is playable up to its last whole page whenever it stops. It runs per frame on live calls,
 * so each frame reuses the same buffers; only a page (once a second) allocates.
 */
export class OggOpusWriter {
  private readonly encoder: Encoder;
  private readonly sink: (bytes: Buffer) => void;
  readonly frameSamples: number;
  private readonly toGranule: number;
  /** The encoder's delay, in samples per channel at the encoded rate: a decoder drops that many at the start. */
  readonly lookahead: number;
  private readonly interleaved: Int16Array | null;
  private body = Buffer.allocUnsafe(PACKETS_PER_PAGE * 200);
  private bodyBytes = 0;
  private readonly lengths = new Uint16Array(PACKETS_PER_PAGE);
  private packets = 0;
  private segments = 0;
  private sequence = 0;
  private frames = 0;
  private finished = false;

  constructor({ channels, sampleRate, bitrate, sink }: OggOpusWriterOptions) {
    this.encoder = new Encoder({ channels, sample_rate: sampleRate, application: 'audio' });
    this.encoder.signal = 'voice';
    this.encoder.bitrate = bitrate;
    this.encoder.complexity = COMPLEXITY;
    this.sink = sink;
    this.frameSamples = (sampleRate * FRAME_MS) / 1000;
    this.toGranule = GRANULE_RATE / sampleRate;
    this.interleaved = channels === 2 ? new Int16Array(this.frameSamples * 2) : null;
    this.lookahead = this.encoder.ctl(OPUS_GET_LOOKAHEAD);
    this.emit(opusHead(channels, this.lookahead * this.toGranule, sampleRate), OGG_FLAG_BEGINNING);
    this.emit(opusTags('Voxline'), 0);
  }

  /** How long the audio written so far lasts. */
  get durationMs(): number {
    return this.frames * FRAME_MS;
  }

  /** One 20 ms frame: `first` alone for mono; for stereo, `first` is the left channel and `second` the right. */
  writeFrame(first: Int16Array, second?: Int16Array): void {
    if (this.finished) throw new Error('the Ogg Opus file is finished: no frame can follow');
    if (first.length !== this.frameSamples) throw new RangeError(`a frame holds ${this.frameSamples} samples, not ${first.length}`);
    let input = first;
    if (this.interleaved) {
      if (second?.length !== this.frameSamples) throw new RangeError(`a stereo frame needs a second channel of ${this.frameSamples} samples`);
      for (let i = 0; i < this.frameSamples; i += 1) {
        this.interleaved[2 * i] = first[i]!;
        this.interleaved[2 * i + 1] = second[i]!;
      }
      input = this.interleaved;
    }
    const packet = this.encoder.encode(input);
    // A page holds 255 segments at most: a run of large packets closes it early.
    if (this.segments + segmentsOf(packet.length) > MAX_SEGMENTS) this.flush(0);
    this.add(packet);
    this.frames += 1;
    if (this.packets === PACKETS_PER_PAGE) this.flush(0);
  }

  /**
   * Writes the last page, marked as the end of the stream. `paddingSamples` (per channel, fewer than
   * a frame) is silence that filled the last frame: the last page's position leaves it out, so the
   * file plays as long as its input. A last page without audio cannot go back on its predecessor's
   * position, and then the padding plays.
   */
  finish(paddingSamples = 0): void {
    if (this.finished) return;
    this.finished = true;
    this.flush(OGG_FLAG_END, this.packets > 0 ? paddingSamples : 0);
  }

  private add(packet: Uint8Array) {
    if (this.bodyBytes + packet.length > this.body.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.body.length * 2, this.bodyBytes + MAX_PACKET_BYTES));
      this.body.copy(bigger, 0, 0, this.bodyBytes);
      this.body = bigger;
    }
    this.body.set(packet, this.bodyBytes);
    this.bodyBytes += packet.length;
    this.lengths[this.packets] = packet.length;
    this.packets += 1;
    this.segments += segmentsOf(packet.length);
  }

  /** The page of the packets so far; its granule position is the end of its last frame. */
  private flush(flags: number, paddingSamples = 0) {
    const granule = (this.frames * this.frameSamples - paddingSamples) * this.toGranule;
    this.sink(oggPage(this.body.subarray(0, this.bodyBytes), this.lengths, this.packets, granule, flags, this.sequence));
    this.sequence += 1;
    this.bodyBytes = 0;
    this.packets = 0;
    this.segments = 0;
  }

  private emit(packet: Buffer, flags: number) {
    this.sink(oggPage(packet, [packet.length], 1, 0, flags, this.sequence));
    this.sequence += 1;
  }
}
