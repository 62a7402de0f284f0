import { frameBytes, frameSamples, WIDEBAND_RATE } from '../../src/common/calls';
import type { MediaWire } from './media-wire';

const FRAME_BYTES = frameBytes(WIDEBAND_RATE);
// A sample well past the stamps: if it arrives changed, the audio was altered on the way.
const CHECK_OFFSET = FRAME_BYTES - 2;

/** One frame of a 440 Hz tone, the ground every frame sent is stamped on. */
const toneFrame = (() => {
  const frame = Buffer.alloc(FRAME_BYTES);
  for (let i = 0; i < frameSamples(WIDEBAND_RATE); i += 1) {
    frame.writeInt16LE(Math.round(16_000 * Math.sin((2 * Math.PI * 440 * i) / WIDEBAND_RATE)), i * 2);
  }
  return frame;
})();

/**
 * Raw PCM as the web app sends it today (640-byte 20 ms frames at 16 kHz), each frame stamped in
 * its first six samples with its sequence number, its stream and its run, so that every frame is
 * known wherever and whenever it arrives. Only a path that carries the samples unchanged keeps
 * the stamps: the PCM socket with the normal voice.
 */
export class StampedPcmWire implements MediaWire {
  constructor(
    private readonly stream: number,
    private readonly run: number,
  ) {}

  message(sequence: number): Buffer {
    const frame = Buffer.allocUnsafe(FRAME_BYTES);
    toneFrame.copy(frame);
    frame.writeUInt32LE(sequence, 0);
    frame.writeUInt32LE(this.stream, 4);
    frame.writeUInt32LE(this.run, 8);
    return frame;
  }

  arrival(data: Buffer, isBinary: boolean): number | 'altered' | 'stale' {
    if (!isBinary || data.length !== FRAME_BYTES || data.readInt16LE(CHECK_OFFSET) !== toneFrame.readInt16LE(CHECK_OFFSET) || data.readUInt32LE(4) !== this.stream) {
      return 'altered';
    }
    if (data.readUInt32LE(8) !== this.run) return 'stale';
    return data.readUInt32LE(0);
  }
}
